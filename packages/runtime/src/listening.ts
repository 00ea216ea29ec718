import { writeSync } from "node:fs";
import { type Server, Socket } from "node:net";
import type { Logger } from "./logger.js";

/** The pipe the process that started this one opened to it (`LISTEN_REPORT_FD`), when it did. */
function launcherChannel(): number | undefined {
  const fd = Number(process.env.LISTEN_REPORT_FD);
  return Number.isInteger(fd) && fd >= 3 ? fd : undefined;
}

/**
 * Tells the process that started this one which ports it bound, when it asked to know
 * (`LISTEN_REPORT_FD`, a pipe it opened): a parent that lets its children take free ports (port
 * 0) learns them without guessing, and no two processes ever race for one port.
 */
export function reportListening(ports: Record<string, number | undefined>): void {
  const fd = launcherChannel();
  if (fd === undefined) return;
  try {
    writeSync(fd, `${JSON.stringify(ports)}\n`);
  } catch (error) {
    // The launcher went while this process started: nobody to tell, and whenLauncherGone stops it.
    if ((error as NodeJS.ErrnoException).code !== "EPIPE") throw error;
  }
}

/**
 * Calls `onGone` once the process that started this one closes the pipe it opened
 * (`LISTEN_REPORT_FD`), as the kernel does when that process ends, however it ends (kill -9
 * included): its children then stop rather than run on orphaned, holding their ports and data.
 */
export function whenLauncherGone(onGone: () => void): void {
  const fd = launcherChannel();
  if (fd === undefined) return;
  const channel = new Socket({ fd, readable: true, writable: false });
  // A reset is the launcher gone too: 'close' follows it.
  channel.on("error", () => {});
  channel.once("close", onGone);
  channel.resume();
  // The pipe alone keeps no process alive.
  channel.unref();
}

/** The port a listening server bound. */
export function boundPort(server: Server): number {
  const address = server.address();
  return typeof address === "object" && address !== null ? address.port : 0;
}

/**
 * Binds a port the process cannot run without. When it cannot, the process says in one log line
 * which address and which variable moves it, and exits 1 (no stack: nothing in it would help).
 */
export async function listenOrExit<T>(
  logger: Logger,
  target: { address: string; variable: string },
  listen: () => Promise<T>,
): Promise<T> {
  try {
    return await listen();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const reason = /EADDRINUSE/.test(message)
      ? "the address is in use"
      : /EACCES/.test(message)
        ? "permission denied"
        : message;
    logger.fatal(
      { ...target, reason },
      `cannot listen on ${target.address}: ${reason} (${target.variable} moves it)`,
    );
    process.exit(1);
  }
}
