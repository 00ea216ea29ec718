import { AuthError } from "@auth/errors";
import { type AsyncService, eventOriginOf } from "@auth/grpc-kit";
import { type IdentityServiceService, NotificationEvent } from "@auth/proto/identity";
import { generateApiKey, hashApiKey } from "../api-keys.js";
import { toCompany, withPolicyDefaults } from "../companies.js";
import type { Notifier } from "../notifications/notifier.js";
import { toProvider, toProviderRow } from "../oauth/providers.js";
import { keepStoredSecrets, sealPolicySecrets } from "../policy-secrets.js";
import {
  countBackupCodesRequest,
  createApiKeyRequest,
  createCompanyRequest,
  createUserRequest,
  deleteOAuthProviderRequest,
  generateBackupCodesRequest,
  getCompanyRequest,
  importUsersRequest,
  linkOAuthIdentityRequest,
  listApiKeysRequest,
  listCompaniesRequest,
  listOAuthProvidersRequest,
  listUsersRequest,
  revokeApiKeyRequest,
  rotateApiKeyRequest,
  setOAuthProviderRequest,
  unlinkOAuthIdentityRequest,
  updateCompanyRequest,
  updateUserRequest,
} from "../requests.js";
import type { IdentityDependencies } from "../server.js";
import { parseStorableRequest } from "../text-fields.js";
import { importUsers } from "../user-import.js";
import { authenticationChanges, newUser, toUser, userChanges } from "../users.js";
import { backupCodeIssuing } from "./backup-code-issuing.js";
import type { Lookups } from "./lookups.js";

/** What only operators call (authctl, with the admin token): companies, their keys, users and OAuth providers. */
export function adminHandlers(
  dependencies: IdentityDependencies,
  { companyById, userById }: Lookups,
  notifier: Notifier,
) {
  const { store, hasher, secrets, companies, session } = dependencies;
  const backupCodes = backupCodeIssuing(dependencies, notifier);
  return {
    async createCompany(request, context) {
      const input = parseStorableRequest(createCompanyRequest, request);
      const policy = sealPolicySecrets(
        keepStoredSecrets(withPolicyDefaults(input.policy), undefined, secrets),
        secrets,
      );
      const row = await store.createCompany({ ...input, policy }, eventOriginOf(context));
      return { company: toCompany(row, secrets) };
    },

    async getCompany(request) {
      const { code } = parseStorableRequest(getCompanyRequest, request);
      const row = await store.findCompanyByCode(code);
      if (!row) throw new AuthError("resource.notfound", { detail: "no such company" });
      return { company: toCompany(row, secrets) };
    },

    async updateCompany(request, context) {
      const input = parseStorableRequest(updateCompanyRequest, request);
      companies.delete(input.companyId);
      const stored = input.policy && (await store.findCompanyById(input.companyId));
      const row = await store.updateCompany(
        input.companyId,
        {
          name: input.name,
          suspended: input.suspended,
          policy:
            input.policy &&
            sealPolicySecrets(
              keepStoredSecrets(withPolicyDefaults(input.policy), stored?.policy, secrets),
              secrets,
              stored?.policy,
            ),
        },
        eventOriginOf(context),
      );
      if (!row) throw new AuthError("resource.notfound", { detail: "no such company" });
      return { company: toCompany(row, secrets) };
    },

    async createApiKey(request, context) {
      const input = parseStorableRequest(createApiKeyRequest, request);
      await companyById(input.companyId);
      const apiKey = input.apiKey ?? generateApiKey();
      const keyId = await store.createApiKey(
        input.companyId,
        hashApiKey(apiKey),
        input.label,
        eventOriginOf(context),
      );
      return { keyId, apiKey };
    },

    async listApiKeys(request) {
      const input = parseStorableRequest(listApiKeysRequest, request);
      const keys = await store.listApiKeys(input.companyId);
      return {
        apiKeys: keys.map((key) => ({
          keyId: key.id,
          label: key.label,
          createdAt: key.createdAt,
          revokedAt: key.revokedAt ?? undefined,
          expiresAt: key.expiresAt ?? undefined,
        })),
      };
    },

    async revokeApiKey(request, context) {
      const input = parseStorableRequest(revokeApiKeyRequest, request);
      if (!(await store.revokeApiKey(input.companyId, input.keyId, eventOriginOf(context)))) {
        throw new AuthError("resource.notfound", { detail: "no such API key" });
      }
      return {};
    },

    async rotateApiKey(request, context) {
      const input = parseStorableRequest(rotateApiKeyRequest, request);
      const old = await store.findApiKey(input.companyId, input.keyId);
      if (!old || old.revokedAt)
        throw new AuthError("resource.notfound", { detail: "no such API key in use" });
      const apiKey = generateApiKey();
      const keyId = await store.rotateApiKey(
        old,
        hashApiKey(apiKey),
        new Date(Date.now() + input.overlapSeconds * 1000),
        eventOriginOf(context),
      );
      return { keyId, apiKey };
    },

    async listCompanies(request) {
      const input = parseStorableRequest(listCompaniesRequest, request);
      const limit = input.pageSize || 100;
      const rows = await store.listCompanies(input.pageToken, limit);
      const last = rows.length === limit ? rows.at(-1)?.code : undefined;
      return { companies: rows.map((row) => toCompany(row, secrets)), nextPageToken: last ?? "" };
    },

    async createUser(request, context) {
      const input = parseStorableRequest(createUserRequest, request);
      const company = await companyById(input.companyId);
      const row = await store.createUser(
        await newUser(input, company.policy, hasher),
        eventOriginOf(context),
      );
      return { user: toUser(row, company.policy) };
    },

    async importUsers(request, context) {
      const input = parseStorableRequest(importUsersRequest, request);
      const company = await companyById(input.companyId);
      return { results: await importUsers(store, hasher, company, input.users, eventOriginOf(context)) };
    },

    async updateUser(request, context) {
      const input = parseStorableRequest(updateUserRequest, request);
      const company = await companyById(input.companyId);
      const row = await userById(input.companyId, input.userId);
      const changes = await userChanges(row, input, company.policy, hasher);
      // Identity owns the user's authenticators, so it applies the rule; the session service ends
      // the sessions: before the write (a failure leaves the user as it was, for the retry) and
      // after it (a login that raced the write on the old factor) (docs/security.md, "What ends a session").
      const endSessions = authenticationChanges(row, changes, company.policy)
        ? () => session.revokeUserSessions({ companyId: row.companyId, userId: row.id })
        : async () => {};
      await endSessions();
      const updated = await store.updateUser(row.companyId, row.id, changes, eventOriginOf(context));
      if (!updated) throw new AuthError("resource.notfound", { detail: "no such user" });
      await endSessions();
      if (input.password !== undefined)
        notifier.notify(row.companyId, row.id, NotificationEvent.PASSWORD_CHANGED);
      return { user: toUser(updated, company.policy) };
    },

    async listUsers(request) {
      const input = parseStorableRequest(listUsersRequest, request);
      const company = await companyById(input.companyId);
      const limit = input.pageSize || 100;
      const rows = await store.listUsers(company.id, input.pageToken || undefined, limit);
      const last = rows.length === limit ? rows.at(-1)?.id : undefined;
      return { users: rows.map((row) => toUser(row, company.policy)), nextPageToken: last ?? "" };
    },

    async generateBackupCodes(request, context) {
      const input = parseStorableRequest(generateBackupCodesRequest, request);
      const row = await userById(input.companyId, input.userId);
      const set = await backupCodes.prepare();
      return {
        backupCodes: await backupCodes.replace(row.companyId, row.id, set, eventOriginOf(context, row.id)),
      };
    },

    async countBackupCodes(request) {
      const input = parseStorableRequest(countBackupCodesRequest, request);
      const row = await userById(input.companyId, input.userId);
      return { remaining: await store.countBackupCodes(row.companyId, row.id) };
    },

    async setOAuthProvider(request, context) {
      const input = parseStorableRequest(setOAuthProviderRequest, request);
      await companyById(input.companyId);
      const stored = await store.findOAuthProvider(input.companyId, input.settings.slot);
      const sealed = secrets.sealAgain(input.settings.clientSecret, stored?.clientSecretEncrypted);
      const row = await store.saveOAuthProvider(
        toProviderRow(input.companyId, input.settings, sealed),
        eventOriginOf(context),
      );
      return { provider: toProvider(row, secrets) };
    },

    async listOAuthProviders(request) {
      const input = parseStorableRequest(listOAuthProvidersRequest, request);
      const rows = await store.listOAuthProviders(input.companyId);
      return { providers: rows.map((row) => toProvider(row, secrets)) };
    },

    async deleteOAuthProvider(request, context) {
      const input = parseStorableRequest(deleteOAuthProviderRequest, request);
      if (!(await store.deleteOAuthProvider(input.companyId, input.slot, eventOriginOf(context)))) {
        throw new AuthError("resource.notfound", { detail: "the slot is empty" });
      }
      return {};
    },

    async linkOAuthIdentity(request, context) {
      const input = parseStorableRequest(linkOAuthIdentityRequest, request);
      await userById(input.companyId, input.userId);
      if (!(await store.findOAuthProvider(input.companyId, input.slot))) {
        throw new AuthError("resource.notfound", { detail: "the slot is empty" });
      }
      await store.linkOAuthIdentity(
        input.companyId,
        input.slot,
        input.subject,
        input.userId,
        eventOriginOf(context),
      );
      return {};
    },

    async unlinkOAuthIdentity(request, context) {
      const input = parseStorableRequest(unlinkOAuthIdentityRequest, request);
      if (
        !(await store.unlinkOAuthIdentity(input.companyId, input.slot, input.subject, eventOriginOf(context)))
      ) {
        throw new AuthError("resource.notfound", { detail: "no such link" });
      }
      return {};
    },
  } satisfies Partial<AsyncService<typeof IdentityServiceService>>;
}
