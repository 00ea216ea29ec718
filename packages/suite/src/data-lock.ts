import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * One suite at a time on a data folder: `suite.lock` in it lists the pids of the process that took
 * it and of every process of the suite, one a line. The folder is in use while any of them lives;
 * a lock whose processes are all gone (a suite killed outright) is taken over at the next start.
 *
 * A pid file checked for liveness, as PostgreSQL's postmaster.pid, rather than a lock kept fresh by
 * a timer (proper-lockfile): a killed suite frees the folder the moment its last process is gone,
 * not a staleness period later, and no timer can let a busy suite's lock lapse while it still runs.
 */
export const lockFileName = "suite.lock";

export class DataDirInUse extends Error {
  constructor(
    readonly dir: string,
    /** The living processes that hold it, the one that took it first. */
    readonly pids: number[],
  ) {
    super(`${dir} is in use by pid ${pids.join(", ")}`);
  }
}

export interface DataLock {
  /** Adds a process of the suite: the folder stays in use while it lives. */
  hold(pid: number): void;
  /** Removes the lock once none of the processes it holds lives (else it is left, to go stale). */
  release(): void;
}

/** Whether the process runs: one that has ended but is not yet reaped (a zombie) holds nothing. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it lives, as another user's process.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    // Linux: the state follows the command's closing parenthesis.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true;
  }
}

const pidsOf = (text: string) =>
  text
    .split("\n")
    .map(Number)
    .filter((pid) => Number.isInteger(pid) && pid > 0);

/** Writes the file whole under a name of its own first, so that no reader ever sees half of it. */
function writeWhole(file: string, pids: number[], place: (written: string) => void): void {
  const written = `${file}.${process.pid}`;
  writeFileSync(written, `${pids.join("\n")}\n`);
  try {
    place(written);
  } finally {
    try {
      unlinkSync(written);
    } catch {}
  }
}

/** The lock's text, or undefined when there is none. */
function readLock(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * Removes a stale lock, and only that one: moved aside first (one starter alone can move it), it is
 * put back if another starter took the folder in between.
 */
function removeStale(file: string, staleText: string): void {
  const aside = `${file}.stale.${process.pid}`;
  try {
    renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  try {
    if (readFileSync(aside, "utf8") !== staleText) linkSync(aside, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    unlinkSync(aside);
  }
}

/** Takes the data folder for this process, or throws DataDirInUse naming the processes that hold it. */
export function lockDataDir(dir: string): DataLock {
  const file = join(dir, lockFileName);
  let pids = [process.pid];
  for (;;) {
    let taken = false;
    writeWhole(file, pids, (written) => {
      try {
        linkSync(written, file);
        taken = true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
    });
    if (taken) break;
    const text = readLock(file);
    if (text === undefined) continue;
    const living = pidsOf(text).filter(alive);
    if (living.length > 0) throw new DataDirInUse(dir, living);
    removeStale(file, text);
  }
  return {
    hold(pid) {
      pids = [...pids.filter(alive), pid];
      writeWhole(file, pids, (written) => renameSync(written, file));
    },
    release() {
      if (pids.some((pid) => pid !== process.pid && alive(pid))) return;
      if (readLock(file) === `${pids.join("\n")}\n`) unlinkSync(file);
    },
  };
}
