// memtui's plugin for opencode: recall into each prompt, capture after each turn.
// Written by `memtui setup --agent opencode` (removed by `--uninstall`); memtui's hook does the work.
// It only shells out, and never throws at opencode or holds it: each call has a time limit and any
// failure means no memories this time, nothing more.
import { spawn, spawnSync } from "node:child_process"
import { homedir } from "node:os"
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
function hook(event: string, payload: Record<string, unknown>, wait = true): Promise<string> {
  return new Promise((resolve) => {
    try {
      const child = spawn(HOOK[0], [...HOOK.slice(1), "--agent", "opencode", event], {
        stdio: ["pipe", wait ? "pipe" : "ignore", "ignore"],
        detached: !wait,
      })
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
      if (!wait) (clearTimeout(timer), child.unref(), resolve(""))
    } catch { resolve("") }
  })
}

let made = 0
// A part id as opencode makes them (prt_ + 12 hex digits of time), so it sorts after the prompt's.
const partID = () =>
  "prt_" + (BigInt(Date.now()) * 4096n + BigInt(++made % 4096)).toString(16).slice(-12) + "memtui" +
  Math.random().toString(36).slice(2, 10).padEnd(8, "0")

// opencode tells a plugin of no session's end: when it exits, the sessions it ran take the rest.
function ended(sessions: Set<string>, directory: string): void {
  for (const session of sessions) {
    try {
      const payload = JSON.stringify({ session_id: session, cwd: directory, reason: "exit", db: database() })
      spawnSync(HOOK[0], [...HOOK.slice(1), "--agent", "opencode", "SessionEnd"], { input: payload, stdio: ["pipe", "ignore", "ignore"], timeout: 2000 })
    } catch {}
  }
}

export const Memtui = async ({ directory }: { directory: string }) => {
  const briefings = new Map<string, Promise<string>>()
  const sessions = new Set<string>()
  process.once("exit", () => ended(sessions, directory))
  return {
    event: async ({ event }: any) => {
      const session = event?.properties?.sessionID
      if (event?.type === "session.idle" && session) sessions.add(session)
      if (event?.type === "session.created" && session)
        briefings.set(session, hook("SessionStart", { session_id: session, cwd: directory, source: "startup" }))
      if (event?.type === "session.idle" && session) hook("Stop", { session_id: session, cwd: directory }, false)
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
        hook("PreCompact", { session_id: input.sessionID, cwd: directory, trigger: "auto" }, false)
        const text = await hook("SessionStart", { session_id: input.sessionID, cwd: directory, source: "compact" })
        if (text) output.context.push(text)
      } catch {}
    },
  }
}
