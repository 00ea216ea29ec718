import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";

/** Threads running or waiting for a core right now: what the load average averages. */
function runQueue(): number {
  return Number(/^procs_running (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"))?.[1] ?? 0);
}

/** What the machine's load was while it was loaded. */
export interface MeasuredLoad {
  cores: number;
  /** stress-ng CPU workers started on top of what already ran. */
  workers: number;
  /** Run queue before the workers started, and sampled every quarter second while they ran. */
  runQueueBefore: number;
  runQueueMean: number;
  runQueueMax: number;
  /** The mean run queue over the cores. */
  timesCores: number;
  /** /proc/loadavg when the workers stopped (the 1-minute average lags a load that just started). */
  loadAverage: string;
}

export interface MachineLoad {
  /** What was measured so far. */
  measured(): MeasuredLoad;
  /** Ends the workers; what was measured while they ran. */
  stop(): Promise<MeasuredLoad>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts `workers` stress-ng CPU workers; answers once they run, and fails when stress-ng cannot start. */
async function startWorkers(workers: number): Promise<{ process: ChildProcess; exited: Promise<void> }> {
  const stress: ChildProcess = spawn("stress-ng", ["--cpu", String(workers), "--quiet"], { stdio: "ignore" });
  const exited = new Promise<void>((resolve, reject) => {
    stress.once("error", (error) => reject(new Error(`stress-ng could not start: ${error.message}`)));
    stress.once("exit", () => resolve());
  });
  // Fails here, not later, when stress-ng is not installed.
  await Promise.race([exited, sleep(500)]);
  return { process: stress, exited };
}

/**
 * Loads the machine to about `timesCores` runnable threads per core with stress-ng CPU workers,
 * counting what already runs (other test files, other work): as many workers as the run queue
 * lacks, and more whenever it falls short over two seconds (the other work ended), so that a busy
 * machine that turns quiet stays loaded. The run queue is sampled until stop(), which ends the
 * workers and answers what was measured.
 */
export async function loadMachine(timesCores: number): Promise<MachineLoad> {
  const cores = availableParallelism();
  const target = timesCores * cores;
  const before: number[] = [];
  for (let sample = 0; sample < 8; sample += 1) {
    before.push(runQueue());
    await sleep(125);
  }
  const runQueueBefore = before.reduce((sum, value) => sum + value, 0) / before.length;
  let workers = Math.max(1, Math.round(target - runQueueBefore));
  const stressors = [await startWorkers(workers)];
  const starting: Promise<unknown>[] = [];
  const samples: number[] = [];
  /** Samples taken since the last workers started: the next are judged on those only. */
  let sinceStarted = 0;
  const sampler = setInterval(() => {
    samples.push(runQueue());
    sinceStarted += 1;
    if (sinceStarted < 8) return;
    const recent = samples.slice(-8);
    const shortBy = target - recent.reduce((sum, value) => sum + value, 0) / recent.length;
    if (shortBy < 0.1 * target) return;
    const more = Math.round(shortBy);
    workers += more;
    sinceStarted = -2; // the half second startWorkers waits
    starting.push(
      startWorkers(more).then(
        (started) => stressors.push(started),
        () => {}, // it started before: the first workers' failure is the one reported
      ),
    );
  }, 250);
  const measured = (): MeasuredLoad => {
    const runQueueMean = samples.reduce((sum, value) => sum + value, 0) / Math.max(1, samples.length);
    return {
      cores,
      workers,
      runQueueBefore,
      runQueueMean,
      runQueueMax: Math.max(0, ...samples),
      timesCores: runQueueMean / cores,
      loadAverage: readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" "),
    };
  };
  return {
    measured,
    async stop() {
      clearInterval(sampler);
      const result = measured();
      await Promise.all(starting);
      for (const { process } of stressors) process.kill("SIGTERM");
      await Promise.all(stressors.map(({ exited }) => exited));
      return result;
    },
  };
}
