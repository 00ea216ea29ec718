import type { AsyncService } from "@auth/grpc-kit";
import type { AuditServiceService } from "@auth/proto/audit";

/** Part "webhooks" builds this: the webhooks' and deliveries' methods. */
export type WebhookHandlersDependencies = {};

export function webhookHandlers(
  _dependencies: WebhookHandlersDependencies,
): Omit<
  AsyncService<typeof AuditServiceService>,
  "listEvents" | "listOwnEvents" | "getRetention" | "setRetention"
> {
  throw new Error("not built yet");
}
