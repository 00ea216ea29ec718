import { stopTracing } from "@auth/telemetry";
import type { Logger } from "pino";
import { whenLauncherGone } from "./listening.js";

/**
 * Runs `stop` once on SIGTERM or SIGINT, or when the process that started this one is gone (its
 * launcher's pipe closed: see whenLauncherGone), then exits. A second signal, or a stop that takes
 * longer than `graceMs`, exits at once; the launcher going while the process stops is no second
 * signal (it goes when a suite is stopped with Ctrl-C: docs/operations.md, "Running").
 */
export function stopOnSignals(logger: Logger, stop: () => Promise<void>, graceMs = 10_000): void {
  let stopping = false;
  const begin = (cause: { signal: NodeJS.Signals } | { launcher: "gone" }) => {
    stopping = true;
    logger.info(cause, "stopping");
    const timer = setTimeout(() => {
      logger.error({ graceMs }, "stop took too long, exiting");
      process.exit(1);
    }, graceMs);
    timer.unref();
    stop()
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
  whenLauncherGone(() => {
    logger.info("launcher gone");
    if (!stopping) begin({ launcher: "gone" });
  });
}
