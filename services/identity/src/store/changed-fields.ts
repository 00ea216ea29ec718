import { isDeepStrictEqual } from "node:util";
import type { ApiKeyRow, CompanyRow, OAuthProviderRow, UserRow } from "../schema.js";

/** The columns an operator's event may name, each by the name of its field in the API. */
type FieldNames<T> = { [K in keyof T]?: string };

export const companyFields: FieldNames<CompanyRow> = {
  code: "code",
  name: "name",
  suspended: "suspended",
  policy: "policy",
};

export const apiKeyFields: FieldNames<ApiKeyRow> = {
  label: "label",
  revokedAt: "revokedAt",
  expiresAt: "expiresAt",
};

/** A hash is named by the secret it keeps: the secret is never in the event, only that it changed. */
export const userFields: FieldNames<UserRow> = {
  role: "role",
  status: "status",
  profileMnemocode: "profileMnemocode",
  loginName: "loginName",
  phone: "phone",
  email: "email",
  passwordHash: "password",
  controlQuestion: "controlQuestion",
  controlAnswerHash: "controlAnswer",
  secondFactorRequired: "secondFactorRequired",
  passwordChangeRequired: "passwordChangeRequired",
};

export const providerFields: FieldNames<OAuthProviderRow> = {
  kind: "kind",
  name: "name",
  issuer: "issuer",
  authorizationEndpoint: "authorizationEndpoint",
  tokenEndpoint: "tokenEndpoint",
  userinfoEndpoint: "userinfoEndpoint",
  clientId: "clientId",
  clientSecretEncrypted: "clientSecret",
  redirectUris: "redirectUris",
  scopes: "scopes",
  subjectClaim: "subjectClaim",
  trustsProviderMfa: "trustsProviderMfa",
  mfaAcrValues: "mfaAcrValues",
  maxAgeSeconds: "maxAgeSeconds",
};

/** A value a new row sets: not empty, zero or false (what a field left unset holds). */
const isSet = (value: unknown) =>
  ![null, undefined, false, 0, ""].includes(value as null) && !isDeepStrictEqual(value, []);

/**
 * The names of the fields a write changed (AdminChangeDetail.fields): those whose value differs
 * between the row before and after it; of a new row (no `before`), those it sets.
 */
export function changedFields<T extends object>(
  before: T | undefined,
  after: T,
  names: FieldNames<T>,
): string[] {
  return (Object.keys(names) as (keyof T)[])
    .filter((key) => (before ? !isDeepStrictEqual(before[key], after[key]) : isSet(after[key])))
    .map((key) => names[key] as string);
}

/** Every field of a company's policies, by its own name, for the policy's event. */
export const policyFields = <T extends object>(...policies: T[]): FieldNames<T> =>
  Object.fromEntries(
    policies.flatMap((policy) => Object.keys(policy)).map((key) => [key, key]),
  ) as FieldNames<T>;
