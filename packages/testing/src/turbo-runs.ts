import { join } from "node:path";
import { readJsonFiles, repositoryRoot } from "./file-times.js";

/** Where turbo writes a summary of each run made with `--summarize` (`npm test` clears it first). */
export const turboRunsDir = join(repositoryRoot, ".turbo", "runs");

interface TurboRunSummary {
  tasks: Array<{ taskId: string; execution?: { exitCode?: number } }>;
}

/** The tasks of the recorded turbo runs that exited with an error, as `<package>#<task> (exit N)`. */
export function failedTasks(summaries: TurboRunSummary[]): string[] {
  return summaries.flatMap(({ tasks }) =>
    tasks
      .filter(({ execution }) => (execution?.exitCode ?? 0) !== 0)
      .map(({ taskId, execution }) => `${taskId} (exit ${execution?.exitCode})`),
  );
}

export function readTurboRuns(): TurboRunSummary[] {
  return readJsonFiles<TurboRunSummary>(turboRunsDir);
}
