import { serverCredentialsOf } from "@auth/grpc-kit";
import { owaspMinimum, PasswordHasher } from "@auth/identity/passwords";
import { createLogger, reportListening, stopOnSignals } from "@auth/runtime";
import {
  Server,
  type ServerUnaryCall,
  type sendUnaryData,
  type UntypedServiceImplementation,
} from "@grpc/grpc-js";
import { callNested, ownTransport, skeletonClients } from "./calling.js";
import {
  hashingMethods,
  type SkeletonMethod,
  type SkeletonService,
  serviceDefinitions,
  skeletonMethods,
} from "./messages.js";

// One service of the skeleton (SKELETON_SERVICE): the product's contract over mutual TLS, fixed
// answers, and identity's argon2id comparison where identity compares a password
// (docs/performance.md, "Against a skeleton and better-auth").
const service = process.env.SKELETON_SERVICE as SkeletonService;
const logger = createLogger(`skeleton-${service}`, "warn");
// Before anything is awaited: a signal during the start-up stops the process in order.
const shutdown = stopOnSignals(logger);
const clients = skeletonClients(process.env.SESSION_ADDR ? { session: process.env.SESSION_ADDR } : {});
const hasher = new PasswordHasher(owaspMinimum);
const storedHash = await hasher.hashPassword("bench-password");

const implementation: UntypedServiceImplementation = {};
for (const [method, { service: of, answer }] of Object.entries(skeletonMethods)) {
  if (of !== service) continue;
  implementation[method] = (
    call: ServerUnaryCall<{ loginId?: string; password?: string; sessionToken?: string }, unknown>,
    callback: sendUnaryData<unknown>,
  ) => {
    const input = {
      loginId: call.request.loginId ?? "",
      password: call.request.password ?? "",
      sessionToken: call.request.sessionToken ?? "",
    };
    const serve = async () => {
      await callNested(clients, method as SkeletonMethod, input);
      if (hashingMethods.has(method as SkeletonMethod))
        await hasher.verifyPassword({ passwordHash: storedHash, passwordNfkc: true }, input.password);
      return answer;
    };
    serve().then(
      (answered) => callback(null, answered),
      (error: Error) => callback(error),
    );
  };
}
const server = new Server();
server.addService(serviceDefinitions[service], implementation);
const port = await new Promise<number>((resolve, reject) =>
  server.bindAsync("127.0.0.1:0", serverCredentialsOf(ownTransport()), (error, bound) =>
    error ? reject(error) : resolve(bound),
  ),
);
reportListening({ port });
shutdown.stopWith(async () => {
  await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
});
