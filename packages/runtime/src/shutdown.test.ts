import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { testBudgets } from "@auth/testing";
import { afterEach, describe, expect, it } from "vitest";

/**
 * A process as the suite's launcher starts one (its pipe on fd 3, LISTEN_REPORT_FD): it stops with
 * stopOnSignals, and its stop lasts until its standard input ends, or none at all without one.
 */
const processUnderTest = `
import { createLogger, reportListening, stopOnSignals } from "@auth/runtime";
const logger = createLogger("under-test", "info");
const shutdown = stopOnSignals(logger);
reportListening({ port: 1 });
shutdown.stopWith(async () => {
  if (process.env.STDIN === "pipe") await new Promise((resolve) => process.stdin.once("end", resolve).resume());
});
setInterval(() => {}, 60_000);
`;

/**
 * A process that starts as the services do: it stops on signals from its first line, and its start
 * (reporting its ports, then saying what to stop) is over once its standard input ends.
 */
const slowStarter = `
import { createLogger, reportListening, stopOnSignals } from "@auth/runtime";
const logger = createLogger("under-test", "info");
const shutdown = stopOnSignals(logger);
logger.info("starting");
process.stdin.once("end", () => {
  reportListening({ port: 1 });
  shutdown.stopWith(async () => logger.info("closing what the start opened"));
}).resume();
setInterval(() => {}, 60_000);
`;

interface Started {
  child: ChildProcess;
  messages: string[];
  exited: Promise<number | null>;
  /** Resolves once the process has logged this message. */
  logged(message: string): Promise<void>;
}

const started: ChildProcess[] = [];

function spawnUnderTest(script: string, stdin: "ignore" | "pipe"): Started {
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
    cwd: fileURLToPath(new URL("..", import.meta.url)),
    env: { PATH: process.env.PATH, LISTEN_REPORT_FD: "3", STDIN: stdin },
    stdio: [stdin, "pipe", "inherit", "pipe"],
  });
  started.push(child);
  const messages: string[] = [];
  const waiting: Array<{ message: string; resolve: () => void }> = [];
  let buffered = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    const lines = (buffered + chunk.toString()).split("\n");
    buffered = lines.pop() ?? "";
    for (const line of lines) {
      const message = (JSON.parse(line) as { msg: string }).msg;
      messages.push(message);
      for (const wait of waiting.filter((w) => w.message === message)) wait.resolve();
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  const underTest: Started = {
    child,
    messages,
    exited,
    logged: (message) =>
      messages.includes(message)
        ? Promise.resolve()
        : new Promise((resolve) => waiting.push({ message, resolve })),
  };
  return underTest;
}

/** The process under test, once it has reported on its pipe, as the launcher waits for it. */
function start(stdin: "ignore" | "pipe"): Promise<Started> {
  const underTest = spawnUnderTest(processUnderTest, stdin);
  return new Promise((resolve) => underTest.child.stdio[3]?.once("data", () => resolve(underTest)));
}

describe("stopOnSignals", () => {
  afterEach(() => {
    for (const child of started.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  });

  it(
    "stops in order when the process that started it is gone, its pipe closed",
    async () => {
      const started = await start("ignore");
      started.child.stdio[3]?.destroy();
      expect(await started.exited).toBe(0);
      expect(started.messages).toEqual(["launcher gone", "stopping", "stopped"]);
    },
    testBudgets.testMs,
  );

  it(
    "stops in order when the launcher is gone with its output (kill -9 of the launcher)",
    async () => {
      const started = await start("ignore");
      started.child.stdout?.destroy();
      started.child.stdio[3]?.destroy();
      expect(await started.exited).toBe(0);
    },
    testBudgets.testMs,
  );

  it(
    "stops in order when the launcher went while it was starting (a Ctrl-C during npm start's start-up)",
    async () => {
      const starting = spawnUnderTest(slowStarter, "pipe");
      starting.child.stdio[3]?.destroy();
      starting.child.stdin?.end();
      expect(await starting.exited).toBe(0);
      expect(starting.messages).toEqual([
        "starting",
        "launcher gone",
        "stopping",
        "closing what the start opened",
        "stopped",
      ]);
    },
    testBudgets.testMs,
  );

  it(
    "takes a signal during the start-up, and stops in order once the start is over (a service still reaching its store)",
    async () => {
      const starting = spawnUnderTest(slowStarter, "pipe");
      await starting.logged("starting");
      starting.child.kill("SIGTERM");
      await starting.logged("stopping");
      starting.child.stdin?.end();
      expect(await starting.exited).toBe(0);
      expect(starting.messages).toEqual(["starting", "stopping", "closing what the start opened", "stopped"]);
    },
    testBudgets.testMs,
  );

  it(
    "takes the launcher going while it stops on a signal as the same stop, not a second signal",
    async () => {
      const started = await start("pipe");
      started.child.kill("SIGINT");
      await started.logged("stopping");
      started.child.stdio[3]?.destroy();
      await started.logged("launcher gone");
      started.child.stdin?.end();
      expect(await started.exited).toBe(0);
      expect(started.messages).toEqual(["stopping", "launcher gone", "stopped"]);
    },
    testBudgets.testMs,
  );

  it(
    "exits at once on a second signal",
    async () => {
      const started = await start("pipe");
      started.child.kill("SIGINT");
      await started.logged("stopping");
      started.child.kill("SIGTERM");
      expect(await started.exited).toBe(1);
      expect(started.messages).toEqual(["stopping", "second signal, exiting now"]);
    },
    testBudgets.testMs,
  );
});
