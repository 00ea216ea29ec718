import { AuthError } from "@auth/errors";
import { type AsyncService, assertTimeLeft, implement } from "@auth/grpc-kit";
import { translateDatabaseError } from "@auth/pg";
import { IdentityServiceService, LoginIdKind, PasswordProblem, UserStatus } from "@auth/proto/identity";
import type { Logger, TtlCache } from "@auth/runtime";
import { metrics } from "@auth/telemetry";
import { z } from "zod";
import { identityAccess } from "./access.js";
import { generateApiKey, hashApiKey } from "./api-keys.js";
import { backupCodesPerUser, generateBackupCode, hashBackupCode } from "./backup-codes.js";
import type { CaptchaCheck } from "./captcha/captcha-check.js";
import { companyCode, policyDefaults, policyInput, toCompany, withPolicyDefaults } from "./companies.js";
import { normalizeControlAnswer } from "./control-answers.js";
import { normalizeEmail, normalizeLoginId, normalizeLoginName, normalizePhone } from "./login-ids.js";
import type { OAuthExchange } from "./oauth/exchange.js";
import { providerSettings, toProvider, toProviderRow } from "./oauth/providers.js";
import { passwordProblem } from "./password-policy.js";
import type { PasswordHasher } from "./passwords.js";
import { keepStoredSecrets, openPolicySecrets, sealPolicySecrets } from "./policy-secrets.js";
import type { CompanyRow, UserRow } from "./schema.js";
import type { SecretBox } from "./secret-box.js";
import type { IdentityStore, LoginIdColumn, NewUser } from "./store/identity-store.js";
import { parseStorableRequest, text, withoutControlCharacters } from "./text-fields.js";
import { mayUseLoginId, passwordChangeRequired, statusName, toUser } from "./users.js";

const id = z.uuid("must be a UUID");
const password = withoutControlCharacters(
  z.string().min(8, "must have at least 8 characters").max(256, "must have at most 256 characters"),
);
const status = z.enum(UserStatus).refine((s) => s !== UserStatus.UNRECOGNIZED, "must be a user status");

const columnOfKind = {
  [LoginIdKind.PHONE]: "phone",
  [LoginIdKind.EMAIL]: "email",
  [LoginIdKind.LOGIN_NAME]: "loginName",
} as const satisfies Record<LoginIdKind.PHONE | LoginIdKind.EMAIL | LoginIdKind.LOGIN_NAME, LoginIdColumn>;

export interface IdentityDependencies {
  store: IdentityStore;
  hasher: PasswordHasher;
  /** Seals the client secrets of OAuth providers and the secrets of company policies. */
  secrets: SecretBox;
  oauth: OAuthExchange;
  /** Checks captcha responses with the companies' providers (whose secrets stay here). */
  captcha: CaptchaCheck;
  adminToken: string;
  /** Companies read by id, kept a few seconds (they are read on almost every call). */
  companies: TtlCache<CompanyRow>;
}

const pageSize = z.number().int().min(0).max(500);
const slot = z.number().int().min(1, "must be 1 to 5").max(5, "must be 1 to 5");

/** The requests' schemas, built once. */
const createCompanyRequest = z.object({
  code: companyCode,
  name: text(200).min(1),
  policy: policyInput.default(policyInput.parse({})),
});
const getCompanyRequest = z.object({ code: text(100) });
const updateCompanyRequest = z.object({
  companyId: id,
  name: text(200).min(1).optional(),
  suspended: z.boolean().optional(),
  policy: policyInput.optional(),
});
const createApiKeyRequest = z.object({
  companyId: id,
  apiKey: text(256).min(24, "must have at least 24 characters").optional(),
  label: text(200),
});
const listApiKeysRequest = z.object({ companyId: id });
const revokeApiKeyRequest = z.object({ companyId: id, keyId: id });
const rotateApiKeyRequest = z.object({
  companyId: id,
  keyId: id,
  overlapSeconds: z
    .number()
    .int()
    .min(0)
    .max(30 * 24 * 3600),
});
const listCompaniesRequest = z.object({ pageSize: pageSize, pageToken: text(200) });
const authenticateApiKeyRequest = z.object({ companyCode: text(100), apiKey: text(256) });
const getUserRequest = z.object({ companyId: id, userId: id });
const listUsersRequest = z.object({
  companyId: id,
  pageSize,
  pageToken: z.union([z.literal(""), z.uuid("must be a page token")]),
});
const findUserRequest = z.object({ companyId: id, loginId: text(512) });
const verifyPasswordRequest = z.object({ companyId: id, userId: id, password: text(1_024) });
const verifyCredentialsRequest = z.object({
  companyId: id,
  loginId: text(512),
  password: text(1_024),
});
const setPasswordRequest = z.object({
  companyId: id,
  userId: id,
  newPassword: text(4_096),
  validateOnly: z.boolean(),
});
const generateBackupCodesRequest = z.object({ companyId: id, userId: id });
const countBackupCodesRequest = z.object({ companyId: id, userId: id });
const useBackupCodeRequest = z.object({ companyId: id, userId: id, backupCode: text(100) });
const verifyControlAnswerRequest = z.object({ companyId: id, userId: id, answer: text(1_024) });
const setOAuthProviderRequest = z.object({ companyId: id, settings: providerSettings });
const listOAuthProvidersRequest = z.object({ companyId: id });
const deleteOAuthProviderRequest = z.object({ companyId: id, slot });
const linkOAuthIdentityRequest = z.object({
  companyId: id,
  userId: id,
  slot,
  subject: text(500).min(1, "is required"),
});
const unlinkOAuthIdentityRequest = z.object({ companyId: id, slot, subject: text(500) });
const verifyCaptchaRequest = z.object({
  companyId: id,
  captchaResponse: text(8_192),
  clientAddress: text(100),
});
const deliveryRequest = z.object({ companyId: id, userId: id });
/** The cap on recovery messages counts those of the last hour. */
const recoveryMessageWindowSeconds = 3600;
const checkPolicyRequest = z.object({ companyId: id });
const exchangeOAuthCodeRequest = z.object({
  companyId: id,
  slot,
  code: text(4_096).min(1, "is required"),
  redirectUri: text(2_000),
  codeVerifier: text(200).optional(),
  nonce: text(500).optional(),
});

export function identityService(
  { store, hasher, secrets, oauth, captcha, adminToken, companies }: IdentityDependencies,
  logger: Logger,
) {
  async function userById(companyId: string, userId: string) {
    const row = await store.findUser(companyId, userId);
    if (!row) throw new AuthError("resource.notfound", { detail: "no such user" });
    return row;
  }

  /**
   * The company and user a message is for: none of a suspended company, and no user who is not
   * active, whatever the caller checked (docs/decisions.md, "Suspension").
   */
  async function recipient(companyId: string, userId: string) {
    const company = await companyById(companyId);
    if (company.suspended) throw new AuthError("auth.restricted", { detail: "company suspended" });
    const user = await userById(companyId, userId);
    if (user.status !== "active") throw new AuthError(`auth.user.${user.status}`);
    return { company, user };
  }

  async function companyById(companyId: string) {
    const cached = companies.get(companyId);
    if (cached) return cached;
    const company = await store.findCompanyById(companyId);
    if (!company) throw new AuthError("resource.notfound", { detail: "no such company" });
    companies.set(companyId, company);
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
    metrics.secretsCompared.inc({ kind: "password" });
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
      const input = parseStorableRequest(createCompanyRequest, request);
      const policy = sealPolicySecrets(
        keepStoredSecrets(withPolicyDefaults(input.policy), undefined, secrets),
        secrets,
      );
      const row = await store.createCompany({ ...input, policy });
      return { company: toCompany(row, secrets) };
    },

    async getCompany(request) {
      const { code } = parseStorableRequest(getCompanyRequest, request);
      const row = await store.findCompanyByCode(code);
      if (!row) throw new AuthError("resource.notfound", { detail: "no such company" });
      return { company: toCompany(row, secrets) };
    },

    async updateCompany(request) {
      const input = parseStorableRequest(updateCompanyRequest, request);
      companies.delete(input.companyId);
      const stored = input.policy && (await store.findCompanyById(input.companyId));
      const row = await store.updateCompany(input.companyId, {
        name: input.name,
        suspended: input.suspended,
        policy:
          input.policy &&
          sealPolicySecrets(
            keepStoredSecrets(withPolicyDefaults(input.policy), stored?.policy, secrets),
            secrets,
          ),
      });
      if (!row) throw new AuthError("resource.notfound", { detail: "no such company" });
      return { company: toCompany(row, secrets) };
    },

    async createApiKey(request) {
      const input = parseStorableRequest(createApiKeyRequest, request);
      await companyById(input.companyId);
      const apiKey = input.apiKey ?? generateApiKey();
      const keyId = await store.createApiKey(input.companyId, hashApiKey(apiKey), input.label);
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

    async revokeApiKey(request) {
      const input = parseStorableRequest(revokeApiKeyRequest, request);
      if (!(await store.endApiKey(input.companyId, input.keyId, { revokedAt: new Date() }))) {
        throw new AuthError("resource.notfound", { detail: "no such API key" });
      }
      return {};
    },

    async rotateApiKey(request) {
      const input = parseStorableRequest(rotateApiKeyRequest, request);
      const old = await store.findApiKey(input.companyId, input.keyId);
      if (!old || old.revokedAt)
        throw new AuthError("resource.notfound", { detail: "no such API key in use" });
      const apiKey = generateApiKey();
      const keyId = await store.createApiKey(input.companyId, hashApiKey(apiKey), old.label);
      await store.endApiKey(input.companyId, old.id, {
        expiresAt: new Date(Date.now() + input.overlapSeconds * 1000),
      });
      return { keyId, apiKey };
    },

    async listCompanies(request) {
      const input = parseStorableRequest(listCompaniesRequest, request);
      const limit = input.pageSize || 100;
      const rows = await store.listCompanies(input.pageToken, limit);
      const last = rows.length === limit ? rows.at(-1)?.code : undefined;
      return { companies: rows.map((row) => toCompany(row, secrets)), nextPageToken: last ?? "" };
    },

    async authenticateApiKey(request) {
      const input = parseStorableRequest(authenticateApiKeyRequest, request);
      const company = await store.findCompanyByApiKey(hashApiKey(input.apiKey));
      if (!company || company.code !== input.companyCode) throw new AuthError("auth.apikey.invalid");
      return { company: toCompany(company, secrets) };
    },

    async createUser(request) {
      const input = parseStorableRequest(
        z
          .object({
            companyId: id,
            role: text(100).min(1, "is required"),
            profileMnemocode: text(200).min(1, "is required"),
            loginName: text(200).trim().min(1).optional(),
            phone: text(50).optional(),
            email: z.email("must be an e-mail address").max(320).optional(),
            password: password.optional(),
            status,
            secondFactorRequired: z.boolean(),
            passwordChangeRequired: z.boolean(),
            controlQuestion: text(500).trim().min(1).optional(),
            controlAnswer: text(500)
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
      const input = parseStorableRequest(getUserRequest, request);
      const company = await companyById(input.companyId);
      return { user: toUser(await userById(input.companyId, input.userId), company.policy) };
    },

    async updateUser(request) {
      const input = parseStorableRequest(
        z
          .object({
            companyId: id,
            userId: id,
            loginName: text(200).trim().optional(),
            phone: text(50).optional(),
            email: z.union([z.literal(""), z.email("must be an e-mail address").max(320)]).optional(),
            role: text(100).min(1).optional(),
            status: status.optional(),
            profileMnemocode: text(200).min(1).optional(),
            secondFactorRequired: z.boolean().optional(),
            passwordChangeRequired: z.boolean().optional(),
            password: z.union([z.literal(""), password]).optional(),
            controlQuestion: text(500).trim().optional(),
            controlAnswer: text(500).optional(),
          })
          .refine(
            (u) =>
              !u.controlQuestion ||
              (u.controlAnswer !== undefined && normalizeControlAnswer(u.controlAnswer) !== ""),
            {
              message: "a control question needs its answer",
              path: ["controlAnswer"],
            },
          ),
        request,
      );
      const company = await companyById(input.companyId);
      const row = await userById(input.companyId, input.userId);
      const changes: Partial<NewUser> = {
        role: input.role,
        status: input.status === undefined ? undefined : statusName(input.status),
        profileMnemocode: input.profileMnemocode,
        secondFactorRequired: input.secondFactorRequired,
        passwordChangeRequired: input.passwordChangeRequired,
      };
      if (input.loginName !== undefined)
        changes.loginName = input.loginName ? normalizeLoginName(input.loginName) : null;
      if (input.email !== undefined) changes.email = input.email ? normalizeEmail(input.email) : null;
      if (input.phone !== undefined) {
        const phone = input.phone ? normalizePhone(input.phone, company.policy.defaultPhoneRegion) : null;
        if (phone === undefined)
          throw new AuthError("request.validation.failed", { detail: "phone: must be a valid phone number" });
        changes.phone = phone;
      }
      if (input.password !== undefined)
        changes.passwordHash = input.password ? await hasher.hash(input.password) : null;
      if (input.controlQuestion !== undefined) {
        changes.controlQuestion = input.controlQuestion || null;
        changes.controlAnswerHash = input.controlQuestion
          ? await hasher.hash(normalizeControlAnswer(input.controlAnswer ?? ""))
          : null;
      }
      const hasPassword =
        (changes.passwordHash === undefined ? row.passwordHash : changes.passwordHash) !== null;
      const hasPhone = (changes.phone === undefined ? row.phone : changes.phone) !== null;
      if (!hasPassword && !hasPhone) {
        throw new AuthError("request.validation.failed", { detail: "a user needs a password or a phone" });
      }
      const updated = await store.updateUser(row.companyId, row.id, changes);
      if (!updated) throw new AuthError("resource.notfound", { detail: "no such user" });
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

    async findUser(request) {
      const input = parseStorableRequest(findUserRequest, request);
      const company = await companyById(input.companyId);
      const { normalizedLoginId, row } = await lookUp(company, input.loginId);
      return { normalizedLoginId, user: row && toUser(row, company.policy) };
    },

    async verifyPassword(request) {
      const input = parseStorableRequest(verifyPasswordRequest, request);
      const company = await companyById(input.companyId);
      const row = await store.findUser(input.companyId, input.userId);
      const verdict = await checkPassword(row, company, input.password);
      return { ...verdict, user: verdict.valid && row ? toUser(row, company.policy) : undefined };
    },

    async verifyCredentials(request) {
      const input = parseStorableRequest(verifyCredentialsRequest, request);
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
      const input = parseStorableRequest(setPasswordRequest, request);
      const company = await companyById(input.companyId);
      const row = await userById(input.companyId, input.userId);
      const problem =
        passwordProblem(input.newPassword, company.policy) ??
        (row.passwordHash && (await hasher.verify(row.passwordHash, input.newPassword))
          ? PasswordProblem.SAME_AS_CURRENT
          : undefined);
      if (problem || input.validateOnly) return { problem };
      const passwordHash = await hasher.hash(input.newPassword);
      // Not after the gateway has answered 503: the user was told the password did not change.
      assertTimeLeft();
      await store.setPasswordHash(row.companyId, row.id, passwordHash, {
        passwordChangeRequired: false,
      });
      return {};
    },

    async generateBackupCodes(request) {
      const input = parseStorableRequest(generateBackupCodesRequest, request);
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
      const input = parseStorableRequest(countBackupCodesRequest, request);
      const row = await userById(input.companyId, input.userId);
      return { remaining: await store.countBackupCodes(row.companyId, row.id) };
    },

    async useBackupCode(request) {
      const input = parseStorableRequest(useBackupCodeRequest, request);
      metrics.secretsCompared.inc({ kind: "backup_code" });
      const valid = await store.useBackupCode(
        input.companyId,
        input.userId,
        hashBackupCode(input.userId, input.backupCode),
      );
      return { valid };
    },

    async verifyControlAnswer(request) {
      const input = parseStorableRequest(verifyControlAnswerRequest, request);
      const row = await userById(input.companyId, input.userId);
      const answer = normalizeControlAnswer(input.answer);
      metrics.secretsCompared.inc({ kind: "control_answer" });
      if (!row.controlAnswerHash) return { valid: await hasher.verifyNothing(answer) };
      return { valid: await hasher.verify(row.controlAnswerHash, answer) };
    },

    async setOAuthProvider(request) {
      const input = parseStorableRequest(setOAuthProviderRequest, request);
      await companyById(input.companyId);
      const row = await store.saveOAuthProvider(
        toProviderRow(input.companyId, input.settings, secrets.seal(input.settings.clientSecret)),
      );
      return { provider: toProvider(row) };
    },

    async listOAuthProviders(request) {
      const input = parseStorableRequest(listOAuthProvidersRequest, request);
      return { providers: (await store.listOAuthProviders(input.companyId)).map(toProvider) };
    },

    async deleteOAuthProvider(request) {
      const input = parseStorableRequest(deleteOAuthProviderRequest, request);
      if (!(await store.deleteOAuthProvider(input.companyId, input.slot))) {
        throw new AuthError("resource.notfound", { detail: "the slot is empty" });
      }
      return {};
    },

    async linkOAuthIdentity(request) {
      const input = parseStorableRequest(linkOAuthIdentityRequest, request);
      await userById(input.companyId, input.userId);
      if (!(await store.findOAuthProvider(input.companyId, input.slot))) {
        throw new AuthError("resource.notfound", { detail: "the slot is empty" });
      }
      await store.linkOAuthIdentity(input.companyId, input.slot, input.subject, input.userId);
      return {};
    },

    async unlinkOAuthIdentity(request) {
      const input = parseStorableRequest(unlinkOAuthIdentityRequest, request);
      if (!(await store.unlinkOAuthIdentity(input.companyId, input.slot, input.subject))) {
        throw new AuthError("resource.notfound", { detail: "no such link" });
      }
      return {};
    },

    async exchangeOAuthCode(request) {
      const input = parseStorableRequest(exchangeOAuthCodeRequest, request);
      const company = await companyById(input.companyId);
      const provider = await store.findOAuthProvider(company.id, input.slot);
      if (!provider)
        throw new AuthError("request.validation.failed", { detail: "provider_id: no provider in this slot" });
      const subject = await oauth.subjectFor(provider, secrets.open(provider.clientSecretEncrypted), input);
      const row = await store.findUserByOAuthSubject(company.id, input.slot, subject);
      return { subject, user: row && toUser(row, company.policy) };
    },

    async verifyCaptcha(request) {
      const input = parseStorableRequest(verifyCaptchaRequest, request);
      const company = await companyById(input.companyId);
      const settings = openPolicySecrets(company.policy, secrets).captcha;
      return { valid: await captcha.verify(settings, input.captchaResponse, input.clientAddress) };
    },

    async getCheckPolicy(request) {
      const { companyId } = parseStorableRequest(checkPolicyRequest, request);
      const { policy, suspended } = await companyById(companyId);
      return {
        captchaAfterFailures: policy.captchaAfterFailures,
        lockoutAfterFailures: policy.lockoutAfterFailures,
        failureWindowSeconds: policy.failureWindowSeconds,
        suspended,
      };
    },

    async getSmsDelivery(request) {
      const input = parseStorableRequest(deliveryRequest, request);
      const { company, user } = await recipient(input.companyId, input.userId);
      return { phone: user.phone ?? undefined, sms: openPolicySecrets(company.policy, secrets).sms };
    },

    async getMailDelivery(request) {
      const input = parseStorableRequest(deliveryRequest, request);
      const { company, user } = await recipient(input.companyId, input.userId);
      return {
        email: user.email ?? undefined,
        companyName: company.name,
        linkBase: company.policy.recovery?.linkBase ?? "",
        mail: openPolicySecrets(company.policy, secrets).mail,
      };
    },

    async spendRecoveryMessage(request) {
      const { companyId, userId } = parseStorableRequest(deliveryRequest, request);
      const { company } = await recipient(companyId, userId);
      // A company stored before the field has none: the default.
      const limit = company.policy.recoveryMessagesPerHour || policyDefaults.recoveryMessagesPerHour;
      const result = await store.spendRecoveryMessage(companyId, userId, limit, recoveryMessageWindowSeconds);
      if (!result.spent) {
        throw new AuthError("request.ratelimit.exceeded", {
          retryAfterSeconds: result.retryAfterSeconds,
          detail: "no more recovery messages for this user this hour",
        });
      }
      return {};
    },
  };

  return {
    name: "auth.identity.v1.IdentityService",
    definition: IdentityServiceService,
    implementation: implement(IdentityServiceService, methods, {
      logger,
      translateError: translateDatabaseError,
      access: identityAccess,
      adminToken,
    }),
  };
}
