import { createServiceClient, type ServiceClient } from "@auth/grpc-kit";
import { DisclaimerServiceService } from "@auth/proto/disclaimer";
import { IdentityServiceService } from "@auth/proto/identity";
import { OtpServiceService } from "@auth/proto/otp";
import { RecoveryServiceService } from "@auth/proto/recovery";
import { SessionServiceService } from "@auth/proto/session";

/** The gateway's clients of the five services. */
export interface Backends {
  identity: ServiceClient<typeof IdentityServiceService>;
  session: ServiceClient<typeof SessionServiceService>;
  otp: ServiceClient<typeof OtpServiceService>;
  recovery: ServiceClient<typeof RecoveryServiceService>;
  disclaimer: ServiceClient<typeof DisclaimerServiceService>;
}

export interface BackendAddresses {
  identity: string;
  session: string;
  otp: string;
  recovery: string;
  disclaimer: string;
}

export function connectBackends(addresses: BackendAddresses, deadlineMs: number): Backends {
  const options = { deadlineMs };
  return {
    identity: createServiceClient(IdentityServiceService, addresses.identity, options),
    session: createServiceClient(SessionServiceService, addresses.session, options),
    otp: createServiceClient(OtpServiceService, addresses.otp, options),
    recovery: createServiceClient(RecoveryServiceService, addresses.recovery, options),
    disclaimer: createServiceClient(DisclaimerServiceService, addresses.disclaimer, options),
  };
}

export function closeBackends(backends: Backends): void {
  for (const client of Object.values(backends)) client.close();
}
