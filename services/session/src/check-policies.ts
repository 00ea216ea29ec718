import type { ServiceClient } from "@auth/grpc-kit";
import type { GetCheckPolicyResponse, IdentityServiceService } from "@auth/proto/identity";
import type { TtlCache } from "@auth/runtime";

type Identity = Pick<ServiceClient<typeof IdentityServiceService>, "getCheckPolicy" | "verifyCaptcha">;

/**
 * What the session service asks the identity service, which owns companies: their limits of secret
 * checks and of sessions, and how long a device stays known (kept a few seconds, as identity keeps
 * companies), and whether a captcha passes.
 */
export class CompanyRules {
  constructor(
    private readonly identity: Identity,
    private readonly policies: TtlCache<GetCheckPolicyResponse>,
  ) {}

  async policyOf(companyId: string): Promise<GetCheckPolicyResponse> {
    return this.policies.getOrLoad(companyId, () => this.identity.getCheckPolicy({ companyId }));
  }

  async captchaPasses(companyId: string, captchaResponse: string, clientAddress: string): Promise<boolean> {
    const { valid } = await this.identity.verifyCaptcha({ companyId, captchaResponse, clientAddress });
    return valid;
  }
}
