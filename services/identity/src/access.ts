import type { AccessTable } from "@auth/grpc-kit";
import type { IdentityServiceService } from "@auth/proto/identity";

/**
 * Who may call what of the identity service, by the SPIFFE ID of the caller's certificate
 * (docs/security.md, "Trust between the services"). Operators also present the admin token.
 */
export const identityAccess: AccessTable<typeof IdentityServiceService> = {
  createCompany: ["operator"],
  getCompany: ["operator"],
  listCompanies: ["operator"],
  updateCompany: ["operator"],
  createApiKey: ["operator"],
  listApiKeys: ["operator"],
  revokeApiKey: ["operator"],
  rotateApiKey: ["operator"],
  createUser: ["operator"],
  updateUser: ["operator"],
  listUsers: ["operator"],
  generateBackupCodes: ["operator"],
  countBackupCodes: ["operator"],
  setOAuthProvider: ["operator"],
  listOAuthProviders: ["operator"],
  deleteOAuthProvider: ["operator"],
  linkOAuthIdentity: ["operator"],
  unlinkOAuthIdentity: ["operator"],
  getUser: ["gateway", "operator"],
  authenticateApiKey: ["gateway"],
  findUser: ["gateway", "operator"],
  verifyPassword: ["gateway"],
  verifyCredentials: ["gateway"],
  setPassword: ["gateway"],
  verifyControlAnswer: ["gateway"],
  useBackupCode: ["gateway"],
  exchangeOAuthCode: ["gateway"],
  verifyCaptcha: ["gateway", "session"],
  getCheckPolicy: ["session"],
  getSmsDelivery: ["otp"],
  getMailDelivery: ["recovery"],
  notifyUser: ["session"],
  beginTotpEnrolment: ["gateway"],
  confirmTotpEnrolment: ["gateway"],
  verifyTotp: ["gateway"],
  removeTotp: ["operator"],
};
