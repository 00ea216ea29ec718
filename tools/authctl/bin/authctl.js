#!/usr/bin/env node
// The command npm links at install time. A fresh clone has no dist/ until its first build, so the
// first use builds authctl and the packages it needs (through turbo), then runs it. Build output
// goes to stderr: with --json, stdout holds only JSON.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const entry = new URL("../dist/main.js", import.meta.url);

if (!existsSync(entry)) {
  const root = fileURLToPath(new URL("../../../", import.meta.url));
  process.stderr.write("authctl: first use on this checkout, building it (about a minute)...\n");
  const build = spawnSync("npm", ["run", "build", "--", "--filter=@auth/authctl..."], {
    cwd: root,
    stdio: ["ignore", process.stderr, process.stderr],
  });
  if (build.status !== 0 || !existsSync(entry)) {
    process.stderr.write("authctl: the build failed; `npm run build` at the repository's root shows why.\n");
    process.exit(1);
  }
}

await import(entry.href);
