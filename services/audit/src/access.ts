import type { AccessTable } from "@auth/grpc-kit";
import type { AuditServiceService } from "@auth/proto/audit";

/** Who may call what of the audit service (docs/security.md, "Trust between the services"). */
export const auditAccess: AccessTable<typeof AuditServiceService> = {
  listEvents: ["operator"],
  // The gateway serves the signed-in user's own view; the token is checked with the session service.
  listOwnEvents: ["gateway"],
  getRetention: ["operator"],
  setRetention: ["operator"],
  createWebhook: ["operator"],
  listWebhooks: ["operator"],
  updateWebhook: ["operator"],
  deleteWebhook: ["operator"],
  rotateWebhookSecret: ["operator"],
  listDeliveries: ["operator"],
  replayDeliveries: ["operator"],
};
