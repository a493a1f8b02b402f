// memtui's plugin for opencode: recall into each prompt, capture after each turn.
// Written by `memtui setup --agent opencode` (removed by `--uninstall`); memtui's hook does the work.
// It only shells out, and never throws at opencode or holds it: each call has a time limit and any
// failure means no memories this time, nothing more.
import { spawn } from "node:child_process"
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs"
import { homedir, tmpdir } from "node:os"
import { isAbsolute, join } from "node:path"

const HOOK: string[] = ["memtui", "hook"]
const LIMIT_MS = 4000

// Where opencode keeps its sessions (its own rule: OPENCODE_DB, else <data>/opencode/opencode.db).
function database(): string {
  const data = join(process.env.XDG_DATA_HOME || join(homedir(), ".local", "share"), "opencode")
  const named = process.env.OPENCODE_DB
  return named ? (isAbsolute(named) ? named : join(data, named)) : join(data, "opencode.db")
}

// Runs the hook for `event`; resolves to the text it adds to the model's context ("" for none).
function hook(event: string, payload: Record<string, unknown>): Promise<string> {
  return new Promise((resolve) => {
    try {
      const child = spawn(HOOK[0], [...HOOK.slice(1), "--agent", "opencode", event], { stdio: ["pipe", "pipe", "ignore"] })
      let out = ""
      const timer = setTimeout(() => (child.kill(), resolve("")), LIMIT_MS)
      child.on("error", () => (clearTimeout(timer), resolve("")))
      child.stdout?.on("data", (chunk) => (out += chunk))
      child.on("close", () => {
        clearTimeout(timer)
        try { resolve(JSON.parse(out).hookSpecificOutput.additionalContext || "") } catch { resolve("") }
      })
      child.stdin?.on("error", () => {})
      child.stdin?.end(JSON.stringify({ ...payload, db: database() }))
    } catch { resolve("") }
  })
}

// Starts the hook for `event` and returns at once, the hook left running on its own. All of it is
// synchronous (the payload reaches it as a file, not a pipe), so opencode's exit can call it too.
function detach(event: string, payload: Record<string, unknown>): void {
  let dir = ""
  try {
    dir = mkdtempSync(join(tmpdir(), "memtui-opencode-"))
    writeFileSync(join(dir, "payload.json"), JSON.stringify({ ...payload, db: database() }), { mode: 0o600 })
    const input = openSync(join(dir, "payload.json"), "r")
    try {
      spawn(HOOK[0], [...HOOK.slice(1), "--agent", "opencode", event], { stdio: [input, "ignore", "ignore"], detached: true }).unref()
    } finally { closeSync(input) }
  } catch {} finally { if (dir) try { rmSync(dir, { recursive: true, force: true }) } catch {} }
}

let made = 0
// A part id as opencode makes them (prt_ + 12 hex digits of time), so it sorts after the prompt's.
const partID = () =>
  "prt_" + (BigInt(Date.now()) * 4096n + BigInt(++made % 4096)).toString(16).slice(-12) + "memtui" +
  Math.random().toString(36).slice(2, 10).padEnd(8, "0")

export const Memtui = async ({ directory }: { directory: string }) => {
  const briefings = new Map<string, Promise<string>>()
  const sessions = new Set<string>()
  // opencode tells a plugin of no session's end: when it exits, the sessions it ran take the rest.
  process.once("exit", () => sessions.forEach((id) => detach("SessionEnd", { session_id: id, cwd: directory, reason: "exit" })))
  return {
    event: async ({ event }: any) => {
      const session = event?.properties?.sessionID
      if (typeof session !== "string") return
      if (event.type === "session.created")
        briefings.set(session, hook("SessionStart", { session_id: session, cwd: directory, source: "startup" }))
      if (event.type === "session.idle") (sessions.add(session), detach("Stop", { session_id: session, cwd: directory }))
    },
    "chat.message": async (_input: any, output: any) => {
      try {
        const session = output.message.sessionID
        const prompt = output.parts.filter((p: any) => p.type === "text" && !p.synthetic).map((p: any) => p.text)
        const briefing = briefings.get(session) ?? Promise.resolve("")
        briefings.delete(session)
        const recalled = hook("UserPromptSubmit", { session_id: session, cwd: directory, prompt: prompt.join("\n") })
        for (const text of await Promise.all([briefing, recalled]))
          if (text) output.parts.push({ id: partID(), messageID: output.message.id, sessionID: session, type: "text", text, synthetic: true })
      } catch {}
    },
    "experimental.session.compacting": async (input: any, output: any) => {
      try {
        detach("PreCompact", { session_id: input.sessionID, cwd: directory, trigger: "auto" })
        const text = await hook("SessionStart", { session_id: input.sessionID, cwd: directory, source: "compact" })
        if (text) output.context.push(text)
      } catch {}
    },
  }
}
