import { type AsyncService, eventOriginOf, implement, messageSchema, parseRequest } from "@auth/grpc-kit";
import { translateDatabaseError } from "@auth/pg";
import {
  type AcceptDisclaimersRequest,
  type CreateDisclaimerRequest,
  type DeactivateDisclaimerRequest,
  DisclaimerServiceService,
  type ListAcceptancesRequest,
  type ListDisclaimersRequest,
  type ListRequiredDisclaimersRequest,
  type PublishDisclaimerVersionRequest,
} from "@auth/proto/disclaimer";
import type { Logger } from "@auth/runtime";
import { z } from "zod";
import { disclaimerAccess } from "./access.js";
import type { DisclaimerStore } from "./store/disclaimer-store.js";

const id = z.uuid("must be a UUID");

const disclaimerInput = messageSchema<CreateDisclaimerRequest & PublishDisclaimerVersionRequest>()(
  z.object({
    companyId: id,
    code: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/, "must be 1 to 100 letters, digits, '.', '_' or '-'"),
    title: z.string().min(1, "is required").max(500),
    description: z.string().max(5_000),
    link: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).max(2_000),
  }),
);

/** The requests' schemas, built once. */
const deactivateDisclaimerRequest = messageSchema<DeactivateDisclaimerRequest>()(
  z.object({ companyId: id, code: z.string().max(100) }),
);
const listDisclaimersRequest = messageSchema<ListDisclaimersRequest>()(z.object({ companyId: id }));
const listAcceptancesRequest = messageSchema<ListAcceptancesRequest>()(
  z.object({
    companyId: id,
    code: z.string().max(100).optional(),
    userId: id.optional(),
    limit: z.number().int().min(0).max(1_000),
  }),
);
const listRequiredDisclaimersRequest = messageSchema<ListRequiredDisclaimersRequest>()(
  z.object({ companyId: id, userId: id }),
);
const acceptDisclaimersRequest = messageSchema<AcceptDisclaimersRequest>()(
  z.object({
    companyId: id,
    userId: id,
    codes: z.array(z.string().max(100)).max(100),
    clientAddress: z.string().max(100),
  }),
);

/** `adminTokenSha256`: the SHA-256 (hex) of the admin token operators present. */
export function disclaimerService(store: DisclaimerStore, adminTokenSha256: string, logger: Logger) {
  const methods: AsyncService<typeof DisclaimerServiceService> = {
    async createDisclaimer(request, context) {
      return {
        disclaimer: await store.create(parseRequest(disclaimerInput, request), eventOriginOf(context)),
      };
    },

    async publishDisclaimerVersion(request, context) {
      const input = parseRequest(disclaimerInput, request);
      return { disclaimer: await store.publishVersion(input, eventOriginOf(context)) };
    },

    async deactivateDisclaimer(request, context) {
      const input = parseRequest(deactivateDisclaimerRequest, request);
      await store.deactivate(input.companyId, input.code, eventOriginOf(context));
      return {};
    },

    async listDisclaimers(request) {
      const input = parseRequest(listDisclaimersRequest, request);
      return { disclaimers: await store.list(input.companyId) };
    },

    async listAcceptances(request) {
      const input = parseRequest(listAcceptancesRequest, request);
      return { acceptances: await store.listAcceptances({ ...input, limit: input.limit || 100 }) };
    },

    async listRequiredDisclaimers(request) {
      const input = parseRequest(listRequiredDisclaimersRequest, request);
      return { disclaimers: await store.listRequired(input.companyId, input.userId) };
    },

    async acceptDisclaimers(request, context) {
      const input = parseRequest(acceptDisclaimersRequest, request);
      return store.accept(input, eventOriginOf(context, input.userId));
    },

    async listCompaniesWithDisclaimers() {
      return { companyIds: await store.companiesWithDisclaimers() };
    },
  };

  return {
    name: "auth.disclaimer.v1.DisclaimerService",
    definition: DisclaimerServiceService,
    implementation: implement(DisclaimerServiceService, methods, {
      logger,
      translateError: translateDatabaseError,
      access: disclaimerAccess,
      adminTokenSha256,
    }),
  };
}
