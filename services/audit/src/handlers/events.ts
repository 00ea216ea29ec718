import type { AsyncService } from "@auth/grpc-kit";
import type { AuditServiceService } from "@auth/proto/audit";

/** Part "audit-core" builds this: ListEvents, ListOwnEvents, GetRetention, SetRetention. */
export type EventHandlersDependencies = {};

export function eventHandlers(
  _dependencies: EventHandlersDependencies,
): Pick<
  AsyncService<typeof AuditServiceService>,
  "listEvents" | "listOwnEvents" | "getRetention" | "setRetention"
> {
  throw new Error("not built yet");
}
