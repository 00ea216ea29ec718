import { type AsyncService, implement } from "@auth/grpc-kit";
import { translateDatabaseError } from "@auth/pg";
import { AuditServiceService } from "@auth/proto/audit";
import type { Logger } from "@auth/runtime";
import { auditAccess } from "./access.js";
import { type EventHandlersDependencies, eventHandlers } from "./handlers/events.js";
import { type WebhookHandlersDependencies, webhookHandlers } from "./handlers/webhooks.js";

/** What the audit service's handlers need; start.ts and testing.ts build it. */
export interface AuditServiceDependencies extends EventHandlersDependencies, WebhookHandlersDependencies {
  /** The SHA-256 (hex) of the admin token operators present. */
  adminTokenSha256: string;
  logger: Logger;
}

/**
 * The audit service: the events' queries and retention (handlers/events.ts) and the webhooks'
 * administration (handlers/webhooks.ts), under one access table.
 */
export function auditService(dependencies: AuditServiceDependencies) {
  const methods: AsyncService<typeof AuditServiceService> = {
    ...eventHandlers(dependencies),
    ...webhookHandlers(dependencies),
  };
  return {
    name: "auth.audit.v1.AuditService",
    definition: AuditServiceService,
    implementation: implement(AuditServiceService, methods, {
      logger: dependencies.logger,
      translateError: translateDatabaseError,
      access: auditAccess,
      adminTokenSha256: dependencies.adminTokenSha256,
    }),
  };
}
