import type { Database } from "@auth/pg";
import type { SecretBox } from "@auth/runtime";
import type { WebhookHandlersDependencies } from "../handlers/webhooks.js";
import type { AuditSchema } from "../schema.js";
import { DeliveryStore } from "./delivery-store.js";
import { WebhookStore } from "./webhook-store.js";

/** The webhooks' stores over the audit service's database, as start.ts and testing.ts build them. */
export function webhooksOf(
  db: Database<AuditSchema>,
  config: { WEBHOOK_RETRY_FOR_MS: number; WEBHOOK_ALLOWED_CIDRS: string[] },
  secretBox: SecretBox,
): WebhookHandlersDependencies {
  const options = { secretBox, retryForMs: config.WEBHOOK_RETRY_FOR_MS };
  return {
    webhookStore: new WebhookStore(db, options),
    deliveryStore: new DeliveryStore(db, options),
    webhookAllowedCidrs: config.WEBHOOK_ALLOWED_CIDRS,
  };
}
