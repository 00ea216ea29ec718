import { AsyncLocalStorage } from "node:async_hooks";
import { AuthError } from "@auth/errors";

/**
 * The moment (epoch ms) by which the call a service is serving must be answered, where one is set
 * (handlers.ts). The gateway sets none: it passes its request's deadline with each call instead
 * (CallOptions.requestDeadline, client.ts), so that no hook runs on its every promise.
 */
const requestDeadline = new AsyncLocalStorage<number>();

/**
 * Whether this process has clients of other services (createServiceClient), whose calls take the
 * deadline of the call being served from the storage above. A process without any (the session and
 * disclaimer services) never runs its handlers under the storage, so that Node enables no hook on
 * its every promise (docs/performance.md, "The gateway's own overhead").
 */
let callsOtherServices = false;

/** Notes that this process calls other services: from now on its handlers pass their deadline on. */
export function passDeadlinesOn(): void {
  callsOtherServices = true;
}

/** Whether a handler's work must run under its deadline (withDeadline) for the calls it makes. */
export function deadlinesPassedOn(): boolean {
  return callsOtherServices;
}

/**
 * Runs `work` under one deadline: every call it makes through a service client, directly or after
 * any number of awaits, gets at most what is left of it. A deadline already set (an outer request's)
 * is kept when it comes first.
 */
export function withDeadline<T>(deadline: number, work: () => T): T {
  return requestDeadline.run(
    Math.min(deadline, requestDeadline.getStore() ?? Number.POSITIVE_INFINITY),
    work,
  );
}

/**
 * The deadline of a call: the client's own, or what is left of the request's (the one given, or the
 * one `withDeadline` set), whichever comes first.
 */
export function callDeadline(ownMs: number, given = Number.POSITIVE_INFINITY): number {
  return Math.min(Date.now() + ownMs, given, requestDeadline.getStore() ?? Number.POSITIVE_INFINITY);
}

/**
 * service.unavailable once the request's deadline (a handler's `context.deadline`) has passed: its
 * caller has answered 503 already, so a write it asked for must not land now, unseen (a process that
 * was frozen, then thawed).
 */
export function assertTimeLeft(deadline: number): void {
  if (Date.now() >= deadline) {
    throw new AuthError("service.unavailable", { detail: "the caller's deadline has passed" });
  }
}
