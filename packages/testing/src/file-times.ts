import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** How long one test file took in the last run of its workspace's tests. */
export interface FileTime {
  /** Path from the repository's root. */
  file: string;
  ms: number;
  state: string;
  /** Each failed test's full name and the first line of its error; errors of the file itself first. */
  failures?: string[];
}

export const repositoryRoot = fileURLToPath(new URL("../../../", import.meta.url));
/** One JSON file per workspace and vitest project, replaced by each run of them (git-ignored). */
export const fileTimesDir = join(repositoryRoot, ".test-results");

export function writeFileTimes(workspaceDir: string, times: FileTime[], project = ""): void {
  mkdirSync(fileTimesDir, { recursive: true });
  const name = [relative(repositoryRoot, workspaceDir) || "root", project]
    .filter(Boolean)
    .join("-")
    .replaceAll(/[^\w.-]+/g, "-");
  writeFileSync(join(fileTimesDir, `${name}.json`), `${JSON.stringify(times, null, 2)}\n`);
}

export function readFileTimes(): FileTime[] {
  return readJsonFiles<FileTime[]>(fileTimesDir).flat();
}

/** What each JSON file of a folder holds; none when the folder is absent. */
export function readJsonFiles<T>(dir: string): T[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith(".json"));
  } catch {
    return [];
  }
  return names.map((name) => JSON.parse(readFileSync(join(dir, name), "utf8")) as T);
}

export function relativeToRoot(path: string): string {
  return relative(repositoryRoot, path);
}

/** The `count` slowest files, slowest first, as the lines of a table. */
export function slowestFiles(times: FileTime[], count: number): string[] {
  const slowest = [...times].sort((a, b) => b.ms - a.ms).slice(0, count);
  const width = Math.max(0, ...slowest.map(({ ms }) => (ms / 1000).toFixed(1).length));
  return slowest.map(
    ({ file, ms, state }) =>
      `${(ms / 1000).toFixed(1).padStart(width)} s  ${file}${state === "passed" ? "" : `  (${state})`}`,
  );
}

/** Every failure recorded, under the file it happened in. */
export function failedTests(times: FileTime[]): string[] {
  return times
    .filter(({ failures }) => failures && failures.length > 0)
    .flatMap(({ file, failures = [] }) => [file, ...failures.map((failure) => `  ${failure}`)]);
}
