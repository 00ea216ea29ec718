import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/** Linux's clock tick for /proc times (USER_HZ); 100 on every architecture Node runs on. */
const ticksPerSecond = 100;

function residentKib(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** User and system CPU a process has used, in ticks. */
function processTicks(pid: number): number {
  try {
    // The command name (field 2) may hold spaces: the fields that follow it are counted from ")".
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/**
 * Nanoseconds on a CPU of every thread of a process (/proc schedstat): finer than the ticks of
 * `stat`, for a server's share of a few hundred operations.
 */
export function threadsCpuNs(pid: number): number {
  try {
    return readdirSync(`/proc/${pid}/task`).reduce(
      (sum, task) => sum + Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]),
      0,
    );
  } catch {
    return 0;
  }
}

/** CPU the whole machine has used (all but idle and iowait), in ticks. */
function machineTicks(): number {
  const cpu = readFileSync("/proc/stat", "utf8").split("\n")[0]?.split(/\s+/).slice(1).map(Number) ?? [];
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = cpu;
  return user + nice + system + irq + softirq + steal;
}

export interface ProcessUsage {
  /** Peak resident memory per process over the scenario, in MiB. */
  peakMemoryMib: Record<string, number>;
  /**
   * CPU seconds each process used during the scenario (the suite's and the servers watched for
   * their CPU alone), and `others` for the rest of the machine (PostgreSQL, Redis, the load
   * generator).
   */
  cpuSeconds: Record<string, number>;
}

interface Watched {
  name: string;
  pid: number | undefined;
}

/**
 * The process listening on a TCP port of this machine (as `ss` shows it: other users' processes
 * only to root); undefined when none is found.
 */
export function listeningProcess(port: number): number | undefined {
  try {
    const listing = execFileSync("ss", ["-Hltnp", `sport = :${port}`], { encoding: "utf8" });
    const pid = /pid=(\d+)/.exec(listing)?.[1];
    return pid === undefined ? undefined : Number(pid);
  } catch {
    return undefined;
  }
}

/**
 * Samples the processes of the suite while a scenario runs: peak memory and CPU used; and the CPU
 * of servers the suite uses but does not own (`cpuOnly`: NATS, whose memory is not the suite's).
 */
export class ProcessSampler {
  readonly #peaks = new Map<string, number>();
  readonly #startTicks = new Map<string, number>();
  readonly #all: Watched[];
  #machineStart = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly processes: Watched[],
    cpuOnly: Watched[] = [],
  ) {
    this.#all = [...processes, ...cpuOnly];
  }

  start(): void {
    this.#peaks.clear();
    for (const { name, pid } of this.#all) {
      if (pid !== undefined) this.#startTicks.set(name, processTicks(pid));
    }
    this.#machineStart = machineTicks();
    const sample = () => {
      for (const { name, pid } of this.processes) {
        if (pid === undefined) continue;
        this.#peaks.set(name, Math.max(this.#peaks.get(name) ?? 0, residentKib(pid)));
      }
    };
    sample();
    this.#timer = setInterval(sample, 200);
  }

  stop(): ProcessUsage {
    clearInterval(this.#timer);
    const cpuSeconds: Record<string, number> = {};
    for (const { name, pid } of this.#all) {
      if (pid === undefined) continue;
      cpuSeconds[name] = (processTicks(pid) - (this.#startTicks.get(name) ?? 0)) / ticksPerSecond;
    }
    const suiteSeconds = Object.values(cpuSeconds).reduce((sum, seconds) => sum + seconds, 0);
    const othersTicks = machineTicks() - this.#machineStart - suiteSeconds * ticksPerSecond;
    cpuSeconds.others = Math.max(0, Math.round(othersTicks) / ticksPerSecond);
    return {
      peakMemoryMib: Object.fromEntries(
        [...this.#peaks].map(([name, kib]) => [name, Math.round(kib / 1024)]),
      ),
      cpuSeconds,
    };
  }
}
