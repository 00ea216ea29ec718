import { stopTracing } from "@auth/telemetry";
import type { Logger } from "pino";
import { whenLauncherGone } from "./listening.js";

export interface Shutdown {
  /** What to stop, in order, once the process has started: a signal that came before waits for it. */
  stopWith(stop: () => Promise<void>): void;
}

/**
 * Stops on SIGTERM or SIGINT, or, once started, when the process that started this one is gone
 * (its launcher's pipe closed: see whenLauncherGone), then exits. Called before the start-up
 * awaits anything, so that a signal during the start is never the default one that kills the
 * process: the stop then begins once the start has said what to stop (`stopWith`), closing what it
 * opened. A second signal, or a stop that takes longer than `graceMs` (the start's rest included),
 * exits at once; the launcher going while the process stops is no second signal (it goes when a
 * suite is stopped with Ctrl-C: docs/operations.md, "Running").
 */
export function stopOnSignals(logger: Logger, graceMs = 10_000): Shutdown {
  let give: (stop: () => Promise<void>) => void = () => {};
  const stopGiven = new Promise<() => Promise<void>>((resolve) => {
    give = resolve;
  });
  let stopping = false;
  const begin = (cause: { signal: NodeJS.Signals } | { launcher: "gone" }) => {
    stopping = true;
    logger.info(cause, "stopping");
    const timer = setTimeout(() => {
      logger.error({ graceMs }, "stop took too long, exiting");
      process.exit(1);
    }, graceMs);
    timer.unref();
    stopGiven
      .then((stop) => stop())
      .then(stopTracing)
      .then(
        () => {
          logger.info("stopped");
          // pino writes asynchronously: exit once its last lines are out, or they may be lost.
          logger.flush(() => process.exit(0));
        },
        (error: unknown) => {
          logger.error({ err: error }, "stop failed");
          process.exit(1);
        },
      );
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, "second signal, exiting now");
      process.exit(1);
    }
    begin({ signal });
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  return {
    stopWith(stop) {
      give(stop);
      // Watched from here, once the process has reported its ports on that pipe: the watch owns it.
      whenLauncherGone(() => {
        logger.info("launcher gone");
        if (!stopping) begin({ launcher: "gone" });
      });
    },
  };
}
