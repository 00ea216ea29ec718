import { stopTracing } from "@auth/telemetry";
import type { Logger } from "pino";

/**
 * Runs `stop` once on SIGTERM or SIGINT, then exits. A second signal, or a stop that takes longer
 * than `graceMs`, exits at once.
 */
export function stopOnSignals(logger: Logger, stop: () => Promise<void>, graceMs = 10_000): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, "second signal, exiting now");
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, "stopping");
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
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
}
