import { AuthError } from "@auth/errors";
import { type AsyncService, implement, parseRequest } from "@auth/grpc-kit";
import { translateDatabaseError } from "@auth/pg";
import { IdentityServiceService, LoginIdKind, PasswordProblem, UserStatus } from "@auth/proto/identity";
import type { Logger } from "@auth/runtime";
import { z } from "zod";
import { generateApiKey, hashApiKey } from "./api-keys.js";
import { backupCodesPerUser, generateBackupCode, hashBackupCode } from "./backup-codes.js";
import { companyCode, policyInput, toCompany, withPolicyDefaults } from "./companies.js";
import { normalizeControlAnswer } from "./control-answers.js";
import { normalizeEmail, normalizeLoginId, normalizeLoginName, normalizePhone } from "./login-ids.js";
import type { OAuthExchange } from "./oauth/exchange.js";
import { providerSettings, toProvider, toProviderRow } from "./oauth/providers.js";
import type { SecretBox } from "./oauth/secrets.js";
import { passwordProblem } from "./password-policy.js";
import type { PasswordHasher } from "./passwords.js";
import type { CompanyRow, UserRow } from "./schema.js";
import type { IdentityStore, LoginIdColumn } from "./store/identity-store.js";
import { mayUseLoginId, passwordChangeRequired, statusName, toUser } from "./users.js";

const id = z.uuid("must be a UUID");
const password = z
  .string()
  .min(8, "must have at least 8 characters")
  .max(256, "must have at most 256 characters");
const status = z.enum(UserStatus).refine((s) => s !== UserStatus.UNRECOGNIZED, "must be a user status");

const columnOfKind = {
  [LoginIdKind.PHONE]: "phone",
  [LoginIdKind.EMAIL]: "email",
  [LoginIdKind.LOGIN_NAME]: "loginName",
} as const satisfies Record<LoginIdKind.PHONE | LoginIdKind.EMAIL | LoginIdKind.LOGIN_NAME, LoginIdColumn>;

export interface IdentityDependencies {
  store: IdentityStore;
  hasher: PasswordHasher;
  /** Seals the client secrets of OAuth providers. */
  secrets: SecretBox;
  oauth: OAuthExchange;
}

const slot = z.number().int().min(1, "must be 1 to 5").max(5, "must be 1 to 5");

export function identityService({ store, hasher, secrets, oauth }: IdentityDependencies, logger: Logger) {
  async function userById(companyId: string, userId: string) {
    const row = await store.findUser(companyId, userId);
    if (!row) throw new AuthError("resource.notfound", { detail: "no such user" });
    return row;
  }

  async function companyById(companyId: string) {
    const company = await store.findCompanyById(companyId);
    if (!company) throw new AuthError("resource.notfound", { detail: "no such company" });
    return company;
  }

  /** The user a login ID names, if the user's role may log in with that kind of login ID. */
  async function lookUp(company: CompanyRow, rawLoginId: string) {
    const loginId = normalizeLoginId(rawLoginId, company.policy.defaultPhoneRegion);
    const row = await store.findUserByLoginId(company.id, columnOfKind[loginId.kind], loginId.value);
    const user = row && mayUseLoginId(company.policy, row.role, loginId.kind) ? row : undefined;
    return { normalizedLoginId: loginId.value, row: user };
  }

  /** One argon2id verification whatever the case; a hash with weaker parameters is replaced. */
  async function checkPassword(row: UserRow | undefined, company: CompanyRow, password: string) {
    if (!row?.passwordHash) {
      await hasher.verifyNothing(password);
      return { valid: false, passwordChangeRequired: false };
    }
    if (!(await hasher.verify(row.passwordHash, password)))
      return { valid: false, passwordChangeRequired: false };
    if (hasher.needsRehash(row.passwordHash)) {
      await store.setPasswordHash(row.companyId, row.id, await hasher.hash(password));
    }
    return { valid: true, passwordChangeRequired: passwordChangeRequired(row, company.policy, password) };
  }

  const methods: AsyncService<typeof IdentityServiceService> = {
    async createCompany(request) {
      const input = parseRequest(
        z.object({
          code: companyCode,
          name: z.string().min(1).max(200),
          policy: policyInput.default(policyInput.parse({})),
        }),
        request,
      );
      const row = await store.createCompany({ ...input, policy: withPolicyDefaults(input.policy) });
      return { company: toCompany(row) };
    },

    async getCompany(request) {
      const { code } = parseRequest(z.object({ code: z.string().max(100) }), request);
      const row = await store.findCompanyByCode(code);
      if (!row) throw new AuthError("resource.notfound", { detail: "no such company" });
      return { company: toCompany(row) };
    },

    async updateCompany(request) {
      const input = parseRequest(
        z.object({
          companyId: id,
          name: z.string().min(1).max(200).optional(),
          suspended: z.boolean().optional(),
          policy: policyInput.optional(),
        }),
        request,
      );
      const row = await store.updateCompany(input.companyId, {
        name: input.name,
        suspended: input.suspended,
        policy: input.policy && withPolicyDefaults(input.policy),
      });
      if (!row) throw new AuthError("resource.notfound", { detail: "no such company" });
      return { company: toCompany(row) };
    },

    async createApiKey(request) {
      const input = parseRequest(
        z.object({
          companyId: id,
          apiKey: z.string().min(24, "must have at least 24 characters").max(256).optional(),
        }),
        request,
      );
      await companyById(input.companyId);
      const apiKey = input.apiKey ?? generateApiKey();
      const keyId = await store.createApiKey(input.companyId, hashApiKey(apiKey));
      return { keyId, apiKey };
    },

    async authenticateApiKey(request) {
      const input = parseRequest(
        z.object({ companyCode: z.string().max(100), apiKey: z.string().max(256) }),
        request,
      );
      const company = await store.findCompanyByApiKey(hashApiKey(input.apiKey));
      if (!company || company.code !== input.companyCode) throw new AuthError("auth.apikey.invalid");
      return { company: toCompany(company) };
    },

    async createUser(request) {
      const input = parseRequest(
        z
          .object({
            companyId: id,
            role: z.string().min(1, "is required").max(100),
            profileMnemocode: z.string().min(1, "is required").max(200),
            loginName: z.string().trim().min(1).max(200).optional(),
            phone: z.string().max(50).optional(),
            email: z.email("must be an e-mail address").max(320).optional(),
            password: password.optional(),
            status,
            secondFactorRequired: z.boolean(),
            passwordChangeRequired: z.boolean(),
            controlQuestion: z.string().trim().min(1).max(500).optional(),
            controlAnswer: z
              .string()
              .max(500)
              .refine((a) => normalizeControlAnswer(a) !== "", "must not be empty")
              .optional(),
          })
          .refine((user) => (user.controlQuestion === undefined) === (user.controlAnswer === undefined), {
            message: "a control question needs its answer, and an answer its question",
            path: ["controlAnswer"],
          }),
        request,
      );
      const company = await companyById(input.companyId);
      const phone =
        input.phone === undefined
          ? undefined
          : normalizePhone(input.phone, company.policy.defaultPhoneRegion);
      if (input.phone !== undefined && !phone) {
        throw new AuthError("request.validation.failed", { detail: "phone: must be a valid phone number" });
      }
      if (input.password === undefined && phone === undefined) {
        throw new AuthError("request.validation.failed", {
          detail: "a user needs a password or a phone to receive one-time passwords",
        });
      }
      const row = await store.createUser({
        companyId: input.companyId,
        role: input.role,
        status: statusName(input.status),
        profileMnemocode: input.profileMnemocode,
        loginName: input.loginName === undefined ? null : normalizeLoginName(input.loginName),
        phone: phone ?? null,
        email: input.email === undefined ? null : normalizeEmail(input.email),
        passwordHash: input.password === undefined ? null : await hasher.hash(input.password),
        secondFactorRequired: input.secondFactorRequired,
        passwordChangeRequired: input.passwordChangeRequired,
        controlQuestion: input.controlQuestion ?? null,
        controlAnswerHash:
          input.controlAnswer === undefined
            ? null
            : await hasher.hash(normalizeControlAnswer(input.controlAnswer)),
      });
      return { user: toUser(row, company.policy) };
    },

    async getUser(request) {
      const input = parseRequest(z.object({ companyId: id, userId: id }), request);
      const company = await companyById(input.companyId);
      return { user: toUser(await userById(input.companyId, input.userId), company.policy) };
    },

    async findUser(request) {
      const input = parseRequest(z.object({ companyId: id, loginId: z.string().max(512) }), request);
      const company = await companyById(input.companyId);
      const { normalizedLoginId, row } = await lookUp(company, input.loginId);
      return { normalizedLoginId, user: row && toUser(row, company.policy) };
    },

    async verifyPassword(request) {
      const input = parseRequest(
        z.object({ companyId: id, userId: id, password: z.string().max(1_024) }),
        request,
      );
      const company = await companyById(input.companyId);
      return checkPassword(await store.findUser(input.companyId, input.userId), company, input.password);
    },

    async verifyCredentials(request) {
      const input = parseRequest(
        z.object({ companyId: id, loginId: z.string().max(512), password: z.string().max(1_024) }),
        request,
      );
      const company = await companyById(input.companyId);
      const { normalizedLoginId, row } = await lookUp(company, input.loginId);
      const verdict = await checkPassword(row, company, input.password);
      return {
        normalizedLoginId,
        user: verdict.valid && row ? toUser(row, company.policy) : undefined,
        passwordChangeRequired: verdict.passwordChangeRequired,
      };
    },

    async setPassword(request) {
      const input = parseRequest(
        z.object({ companyId: id, userId: id, newPassword: z.string().max(4_096) }),
        request,
      );
      const company = await companyById(input.companyId);
      const row = await userById(input.companyId, input.userId);
      const problem =
        passwordProblem(input.newPassword, company.policy) ??
        (row.passwordHash && (await hasher.verify(row.passwordHash, input.newPassword))
          ? PasswordProblem.SAME_AS_CURRENT
          : undefined);
      if (problem) return { problem };
      await store.setPasswordHash(row.companyId, row.id, await hasher.hash(input.newPassword), {
        passwordChangeRequired: false,
      });
      return {};
    },

    async generateBackupCodes(request) {
      const input = parseRequest(z.object({ companyId: id, userId: id }), request);
      const row = await userById(input.companyId, input.userId);
      const backupCodes = Array.from({ length: backupCodesPerUser }, generateBackupCode);
      await store.replaceBackupCodes(
        row.companyId,
        row.id,
        backupCodes.map((code) => hashBackupCode(row.id, code)),
      );
      return { backupCodes };
    },

    async countBackupCodes(request) {
      const input = parseRequest(z.object({ companyId: id, userId: id }), request);
      const row = await userById(input.companyId, input.userId);
      return { remaining: await store.countBackupCodes(row.companyId, row.id) };
    },

    async useBackupCode(request) {
      const input = parseRequest(
        z.object({ companyId: id, userId: id, backupCode: z.string().max(100) }),
        request,
      );
      const valid = await store.useBackupCode(
        input.companyId,
        input.userId,
        hashBackupCode(input.userId, input.backupCode),
      );
      return { valid };
    },

    async verifyControlAnswer(request) {
      const input = parseRequest(
        z.object({ companyId: id, userId: id, answer: z.string().max(1_024) }),
        request,
      );
      const row = await userById(input.companyId, input.userId);
      const answer = normalizeControlAnswer(input.answer);
      if (!row.controlAnswerHash) return { valid: await hasher.verifyNothing(answer) };
      return { valid: await hasher.verify(row.controlAnswerHash, answer) };
    },

    async setOAuthProvider(request) {
      const input = parseRequest(z.object({ companyId: id, settings: providerSettings }), request);
      await companyById(input.companyId);
      const row = await store.saveOAuthProvider(
        toProviderRow(input.companyId, input.settings, secrets.seal(input.settings.clientSecret)),
      );
      return { provider: toProvider(row) };
    },

    async listOAuthProviders(request) {
      const input = parseRequest(z.object({ companyId: id }), request);
      return { providers: (await store.listOAuthProviders(input.companyId)).map(toProvider) };
    },

    async deleteOAuthProvider(request) {
      const input = parseRequest(z.object({ companyId: id, slot }), request);
      if (!(await store.deleteOAuthProvider(input.companyId, input.slot))) {
        throw new AuthError("resource.notfound", { detail: "the slot is empty" });
      }
      return {};
    },

    async linkOAuthIdentity(request) {
      const input = parseRequest(
        z.object({ companyId: id, userId: id, slot, subject: z.string().min(1, "is required").max(500) }),
        request,
      );
      await userById(input.companyId, input.userId);
      if (!(await store.findOAuthProvider(input.companyId, input.slot))) {
        throw new AuthError("resource.notfound", { detail: "the slot is empty" });
      }
      await store.linkOAuthIdentity(input.companyId, input.slot, input.subject, input.userId);
      return {};
    },

    async unlinkOAuthIdentity(request) {
      const input = parseRequest(z.object({ companyId: id, slot, subject: z.string().max(500) }), request);
      if (!(await store.unlinkOAuthIdentity(input.companyId, input.slot, input.subject))) {
        throw new AuthError("resource.notfound", { detail: "no such link" });
      }
      return {};
    },

    async exchangeOAuthCode(request) {
      const input = parseRequest(
        z.object({
          companyId: id,
          slot,
          code: z.string().min(1, "is required").max(4_096),
          redirectUri: z.string().max(2_000),
          codeVerifier: z.string().max(200).optional(),
          nonce: z.string().max(500).optional(),
        }),
        request,
      );
      const company = await companyById(input.companyId);
      const provider = await store.findOAuthProvider(company.id, input.slot);
      if (!provider)
        throw new AuthError("request.validation.failed", { detail: "provider_id: no provider in this slot" });
      const subject = await oauth.subjectFor(provider, secrets.open(provider.clientSecretEncrypted), input);
      const row = await store.findUserByOAuthSubject(company.id, input.slot, subject);
      return { subject, user: row && toUser(row, company.policy) };
    },
  };

  return {
    name: "auth.identity.v1.IdentityService",
    definition: IdentityServiceService,
    implementation: implement(IdentityServiceService, methods, {
      logger,
      translateError: translateDatabaseError,
    }),
  };
}
