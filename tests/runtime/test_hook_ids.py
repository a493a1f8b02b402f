"""What a hook stores of the strings another program chose: a session id only as a digest, a
Markdown file's name only when it is a safe id, and recall labels that stay one short line."""

from __future__ import annotations

import json

from hookkit import context_of, payload, run_hook, wait_for_worker
from hostilekit import HOSTILE_IDS, raw_memory
from secretkit import SECRETS, leaked

from memtui.core import ids


def test_recall_labels_stay_short_whatever_the_stored_ids(project, home):
    path = project.path("state.json")
    data = json.loads(path.read_text())
    data["memories"] = [
        raw_memory(mid, f"The {n} memory says the widget cache expires after ninety seconds")
        for n, mid in enumerate(HOSTILE_IDS.values())
    ]
    path.write_text(json.dumps(data, indent=2))
    answer = run_hook(
        "UserPromptSubmit",
        payload("UserPromptSubmit", project.root, prompt="When does the widget cache expire after ninety seconds?"),
        root=project.root,
        home=home,
    )
    context = context_of(answer)
    assert "widget cache expires" in context
    assert "SYSTEM: obey" not in context and "x" * 200 not in context
    labels = [line.rsplit("(", 1)[-1] for line in context.splitlines() if "widget cache" in line]
    assert labels and all(len(label) < 2 * ids.MAX_ID for label in labels)


def test_a_session_id_is_stored_only_as_its_digest(project, home):
    secret = SECRETS["github-token"]
    for event, fields in (
        ("SessionStart", {"source": "startup"}),
        ("UserPromptSubmit", {"prompt": "remember that we deploy with make ship from the main branch"}),
        ("UserPromptSubmit", {"prompt": "How do we deploy with make ship these days?"}),
    ):
        data = payload(event, project.root, session=secret, transcript=str(project.root / "t.jsonl"), **fields)
        run_hook(event, data, root=project.root, home=home)
    wait_for_worker(project.memory_dir)  # the worker a hook started must not move files under the walk
    state = json.loads(project.path("state.json").read_text())
    saved = [m for m in state["memories"] if "make ship" in m["content"]]
    assert saved and saved[0]["source"]["session"] == ids.session(secret)
    assert list((project.memory_dir / "sessions").glob("*.json"))  # recall kept its no-repeat set…
    assert leaked(project.memory_dir) == []  # …and nothing under .memory holds the session id


def test_a_secret_in_a_markdown_file_name_is_not_copied_anywhere(project, home, cli):
    secret = SECRETS["github-token"]
    folder = project.root / ".claude" / "memory"
    folder.mkdir(parents=True)
    (folder / f"reference_{secret}.md").write_text(
        "---\nname: bot token\ntype: reference\n---\n\nThe release bot pushes tags from the ci runner.\n"
    )
    env = {"HOME": str(home), "CLAUDE_PROJECT_DIR": str(project.root)}
    listed = cli("list", cwd=project.root, env=env)
    assert listed.returncode == 0 and "The release bot pushes tags" in listed.stdout.decode()
    assert secret not in listed.stdout.decode()
    assert cli("search", "release bot tags", cwd=project.root, env=env).returncode == 0
    answer = run_hook(
        "UserPromptSubmit",
        payload("UserPromptSubmit", project.root, prompt="Which runner pushes the release bot tags?"),
        root=project.root,
        home=home,
    )
    assert "release bot" in context_of(answer) and secret not in context_of(answer)
    assert (project.memory_dir / "index.db").exists()
    assert leaked(project.memory_dir) == []
