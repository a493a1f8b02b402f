"""The symbol table's fast scan: definitions per language, script targets, keys, words and flags."""

from __future__ import annotations

import pytest

from memtui.verify import scan


@pytest.mark.parametrize(
    ("path", "text", "defined"),
    [
        (
            "billing/invoice.py",
            "MAX_RETRIES = 3\nclass InvoiceService:\n    TIMEOUT = 5\n    async def finalize(self):\n        local = 1\n",
            {"MAX_RETRIES", "InvoiceService", "TIMEOUT", "finalize", "billing", "invoice"},
        ),
        (
            "src/lib/stripe.ts",
            "export function handleWebhook(e) {}\nexport class Client {\n  async send(x: string): Promise<void> {\n"
            "    if (x) {}\n  }\n}\nconst API_URL = 'x'\ninterface Options {}\ntype Id = string\n",
            {"handleWebhook", "Client", "send", "API_URL", "Options", "Id", "src", "lib", "stripe"},
        ),
        (
            "cmd/server/main.go",
            "package main\nfunc (s *Server) Serve() error {}\nfunc main() {}\ntype Server struct{}\nconst Port = 80\n",
            {"Serve", "main", "Server", "Port", "cmd", "server"},
        ),
        (
            "src/lib.rs",
            "pub fn parse_args() {}\npub struct Config;\nenum Mode {}\ntrait Runner {}\nconst LIMIT: u32 = 3;\n"
            "macro_rules! retry {}\n",
            {"parse_args", "Config", "Mode", "Runner", "LIMIT", "retry", "src", "lib"},
        ),
        (
            "app/Billing.java",
            "public class Billing {\n    private static final int MAX = 3;\n    public void charge(Card c) {\n",
            {"Billing", "MAX", "charge", "app"},
        ),
        (
            "lib/tasks.rb",
            "module Jobs\n  class Worker\n    def self.enqueue(x)\n    def valid?\n    LIMIT = 2\n",
            {"Jobs", "Worker", "enqueue", "valid?", "LIMIT", "lib", "tasks"},
        ),
        (
            "scripts/deploy.sh",
            "#!/bin/sh\nexport DEPLOY_ENV=prod\nbuild_image() {\n}\nfunction push-image {\n}\nfunction tag_it() {\n}\n",
            {"DEPLOY_ENV", "build_image", "tag_it", "scripts", "deploy"},
        ),
        ("config/app.yaml", "retry:\n  max_attempts: 3\n", {"retry", "max_attempts", "config", "app"}),
        ("Makefile", "ship: build\n\t./deploy\n.PHONY: ship\nbuild lint:\n", {"make:ship", "make:build", "make:lint"}),
        ("package.json", '{"scripts": {"build": "vite", "test:unit": "vitest"}}', {"script:build", "script:test:unit"}),
        ("pyproject.toml", '[project.scripts]\nmemtui = "memtui.cli:main"\n[tool.x]\n', {"script:memtui", "project"}),
    ],
)
def test_definitions_by_language(path: str, text: str, defined: set[str]) -> None:
    found = scan.definitions(path, text) | scan.path_names(path)
    assert defined <= found, defined - found
    assert "if" not in found and "local" not in found


def test_words_and_flags_from_text_and_bytes_agree() -> None:
    text = 'parser.add_argument("--dry-run", help="skip it") # uses json.dumps\n'
    assert scan.words(text) == scan.words_of_bytes(text.encode()) >= {"add_argument", "--dry-run", "json", "dumps"}
