import { writeSync } from "node:fs";
import type { Server } from "node:net";

/**
 * Tells the process that started this one which ports it bound, when it asked to know
 * (`LISTEN_REPORT_FD`, a pipe it opened): a parent that lets its children take free ports (port
 * 0) learns them without guessing, and no two processes ever race for one port.
 */
export function reportListening(ports: Record<string, number | undefined>): void {
  const fd = Number(process.env.LISTEN_REPORT_FD);
  if (!Number.isInteger(fd) || fd < 3) return;
  writeSync(fd, `${JSON.stringify(ports)}\n`);
}

/** The port a listening server bound. */
export function boundPort(server: Server): number {
  const address = server.address();
  return typeof address === "object" && address !== null ? address.port : 0;
}
