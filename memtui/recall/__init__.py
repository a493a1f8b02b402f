"""Recall: which memories a prompt or a session start gets, fenced as data, within its budgets.

The room under the faces: the in-process hook (`memtui.runtime.entry`), the warm recall service
(`memtui.runtime.server`) and the MCP tools all answer through it, and none of them imports another face.

    context   one hook call: event, payload, project, settings, log (`locate`, `parse_payload`)
    answer    the prompt's memories and the session's briefing (`respond`)
    layers    what each layer carries (Claude Code's own loads, briefing, recall): nothing twice
    lookup    search through the calibrated gate; the briefing's ranking
    fence     the injected block: recalled text as data, never instructions
    session   what a session has been shown already, and how many bytes
    access    recall counts written back to the stores
    drift     notes of drifted memories; verification queued for the worker
    settings  the `[hooks]` table of config.toml
    log       `.memory/logs/hooks.log`

Standard library and memtui's light layers at module level: this is on the hook's path.
"""
