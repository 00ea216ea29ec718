import {
  createServiceClient,
  forRequest,
  type GrpcCallSettings,
  type GrpcTransport,
  type RequestOrigin,
  requestMetadata,
  type ServiceClient,
} from "@auth/grpc-kit";
import { AuditServiceService } from "@auth/proto/audit";
import { DisclaimerServiceService } from "@auth/proto/disclaimer";
import { IdentityServiceService } from "@auth/proto/identity";
import { OtpServiceService } from "@auth/proto/otp";
import { RecoveryServiceService } from "@auth/proto/recovery";
import { SessionServiceService } from "@auth/proto/session";

/** The gateway's clients of the six services. */
export interface Backends {
  identity: ServiceClient<typeof IdentityServiceService>;
  session: ServiceClient<typeof SessionServiceService>;
  otp: ServiceClient<typeof OtpServiceService>;
  recovery: ServiceClient<typeof RecoveryServiceService>;
  disclaimer: ServiceClient<typeof DisclaimerServiceService>;
  audit: ServiceClient<typeof AuditServiceService>;
}

export interface BackendAddresses {
  identity: string;
  session: string;
  otp: string;
  recovery: string;
  disclaimer: string;
  audit: string;
}

/** The gateway's clients, each presenting the gateway's certificate and checking the service's. */
export function connectBackends(
  addresses: BackendAddresses,
  calls: GrpcCallSettings,
  transport: GrpcTransport,
): Backends {
  const options = {
    deadlineMs: calls.GRPC_DEADLINE_MS,
    keepaliveTimeoutMs: calls.GRPC_KEEPALIVE_TIMEOUT_MS,
    transport,
  };
  return {
    identity: createServiceClient(IdentityServiceService, addresses.identity, {
      ...options,
      server: "identity",
    }),
    session: createServiceClient(SessionServiceService, addresses.session, { ...options, server: "session" }),
    otp: createServiceClient(OtpServiceService, addresses.otp, { ...options, server: "otp" }),
    recovery: createServiceClient(RecoveryServiceService, addresses.recovery, {
      ...options,
      server: "recovery",
    }),
    disclaimer: createServiceClient(DisclaimerServiceService, addresses.disclaimer, {
      ...options,
      server: "disclaimer",
    }),
    audit: createServiceClient(AuditServiceService, addresses.audit, { ...options, server: "audit" }),
  };
}

/**
 * The clients as one request uses them: every call gets at most what is left of the request's
 * deadline and carries its origin, for the events the services record (docs/decisions.md, "Security
 * events"). The metadata is made here, once for the request's calls.
 */
export function backendsForRequest(backends: Backends, deadline: number, origin: RequestOrigin): Backends {
  const options = { requestDeadline: deadline, metadata: requestMetadata(origin) };
  return {
    identity: forRequest(backends.identity, options),
    session: forRequest(backends.session, options),
    otp: forRequest(backends.otp, options),
    recovery: forRequest(backends.recovery, options),
    disclaimer: forRequest(backends.disclaimer, options),
    audit: forRequest(backends.audit, options),
  };
}

export function closeBackends(backends: Backends): void {
  for (const client of Object.values(backends)) client.close();
}
