import { execFileSync, spawnSync } from "node:child_process";

/**
 * Prometheus's own checker of metric names and rule files. Debian ships it in the prometheus
 * package; .ci/run extracts the binary alone (without installing the server) when it is missing.
 */
function findPromtool(): string | undefined {
  try {
    return execFileSync("sh", ["-c", "command -v promtool"], { encoding: "utf8" }).trim() || undefined;
  } catch {
    return undefined;
  }
}

const promtoolPath = findPromtool();

/** Whether promtool is there; says so once when it is not, since its checks are then skipped. */
export function promtoolInstalled(): boolean {
  if (promtoolPath) return true;
  process.stderr.write(
    "Skipping the promtool checks: promtool is not on PATH (see .ci/run, step promtool).\n",
  );
  return false;
}

/** Runs `promtool check <what>` and returns its complaints; empty when it has none. */
export function promtoolCheck(args: string[], input?: string): string {
  if (!promtoolPath) throw new Error("promtool is not installed");
  const run = spawnSync(promtoolPath, ["check", ...args], { input, encoding: "utf8" });
  if (run.error) throw run.error;
  return run.status === 0 ? "" : `${run.stdout}${run.stderr}`.trim() || `exit status ${run.status}`;
}
