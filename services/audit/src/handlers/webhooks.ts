import { eventCatalogue } from "@auth/events";
import { type AsyncService, eventOriginOf, messageSchema, parseRequest } from "@auth/grpc-kit";
import {
  type AuditServiceService,
  type CreateWebhookRequest,
  type DeleteWebhookRequest,
  DeliveryState,
  type ListDeliveriesRequest,
  type ListWebhooksRequest,
  type ReplayDeliveriesRequest,
  type RotateWebhookSecretRequest,
  type UpdateWebhookRequest,
} from "@auth/proto/audit";
import { hasControlCharacter } from "@auth/runtime";
import { z } from "zod";
import type { DeliveryStore } from "../webhooks/delivery-store.js";
import { allowedRangesOf, webhookUrlProblem } from "../webhooks/url-rules.js";
import type { WebhookStore } from "../webhooks/webhook-store.js";

/** What the webhooks' methods need; start.ts and testing.ts build it. */
export interface WebhookHandlersDependencies {
  webhookStore: WebhookStore;
  deliveryStore: DeliveryStore;
  /** WEBHOOK_ALLOWED_CIDRS: the non-public addresses a webhook's URL may name. */
  webhookAllowedCidrs: readonly string[];
}

const id = z.uuid("must be a UUID");
const eventTypeNames = Object.keys(eventCatalogue) as [string, ...string[]];
const eventTypes = (least: number) =>
  z
    .array(z.enum(eventTypeNames, "must be an event type of the catalogue"))
    .min(least, "must name at least one event type")
    .max(100)
    .transform((types) => [...new Set(types)]);
const description = z
  .string()
  .max(500)
  .refine((text) => !hasControlCharacter(text), "must not contain control characters");
const webhookRef = { companyId: id, webhookId: id };
const day = 86_400;

const listWebhooksRequest = messageSchema<ListWebhooksRequest>()(z.object({ companyId: id }));
const deleteWebhookRequest = messageSchema<DeleteWebhookRequest>()(z.object(webhookRef));
const rotateWebhookSecretRequest = messageSchema<RotateWebhookSecretRequest>()(
  z.object({
    ...webhookRef,
    overlapSeconds: z
      .number()
      .int()
      .min(0)
      .max(7 * day),
  }),
);
const listDeliveriesRequest = messageSchema<ListDeliveriesRequest>()(
  z.object({
    ...webhookRef,
    state: z.enum(
      [DeliveryState.UNSPECIFIED, DeliveryState.PENDING, DeliveryState.SUCCEEDED, DeliveryState.DEAD],
      "must be a delivery state",
    ),
    pageSize: z.number().int().min(0).max(1_000),
    pageToken: z.string().max(200),
  }),
);
const replayDeliveriesRequest = messageSchema<ReplayDeliveriesRequest>()(
  z.object({
    ...webhookRef,
    deliveryIds: z
      .array(id)
      .max(1_000)
      .transform((ids) => [...new Set(ids)]),
  }),
);

/**
 * The webhooks' and their deliveries' methods (docs/decisions.md, "Audit trail and webhooks"). A
 * webhook is named by its company and id: another company's is not found.
 */
export function webhookHandlers({
  webhookStore,
  deliveryStore,
  webhookAllowedCidrs,
}: WebhookHandlersDependencies): Omit<
  AsyncService<typeof AuditServiceService>,
  "listEvents" | "listOwnEvents" | "getRetention" | "setRetention"
> {
  const allowed = allowedRangesOf(webhookAllowedCidrs);
  const url = z
    .string()
    .max(2_000)
    .superRefine((text, context) => {
      const problem = webhookUrlProblem(text, allowed);
      if (problem) context.addIssue({ code: "custom", message: problem });
    });
  const createWebhookRequest = messageSchema<CreateWebhookRequest>()(
    z.object({ companyId: id, url, eventTypes: eventTypes(1), description }),
  );
  const updateWebhookRequest = messageSchema<UpdateWebhookRequest>()(
    z.object({
      ...webhookRef,
      url: url.optional(),
      eventTypes: z.object({ types: eventTypes(0) }).optional(),
      description: description.optional(),
      enabled: z.boolean().optional(),
    }),
  );

  return {
    async createWebhook(request, context) {
      const input = parseRequest(createWebhookRequest, request);
      return webhookStore.create(input, eventOriginOf(context));
    },

    async listWebhooks(request) {
      const input = parseRequest(listWebhooksRequest, request);
      return { webhooks: await webhookStore.list(input.companyId) };
    },

    async updateWebhook(request, context) {
      const { companyId, webhookId, eventTypes, ...changes } = parseRequest(updateWebhookRequest, request);
      const webhook = await webhookStore.update(
        companyId,
        webhookId,
        { ...changes, eventTypes: eventTypes?.types },
        eventOriginOf(context),
      );
      return { webhook };
    },

    async deleteWebhook(request, context) {
      const input = parseRequest(deleteWebhookRequest, request);
      await webhookStore.delete(input.companyId, input.webhookId, eventOriginOf(context));
      return {};
    },

    async rotateWebhookSecret(request, context) {
      const input = parseRequest(rotateWebhookSecretRequest, request);
      const overlapSeconds = input.overlapSeconds || day;
      return webhookStore.rotateSecret(
        input.companyId,
        input.webhookId,
        overlapSeconds * 1000,
        eventOriginOf(context),
      );
    },

    async listDeliveries(request) {
      const input = parseRequest(listDeliveriesRequest, request);
      return deliveryStore.list(input.companyId, input.webhookId, {
        state: input.state,
        pageSize: input.pageSize || 100,
        pageToken: input.pageToken,
      });
    },

    async replayDeliveries(request) {
      const input = parseRequest(replayDeliveriesRequest, request);
      return { queued: await deliveryStore.replay(input.companyId, input.webhookId, input.deliveryIds) };
    },
  };
}
