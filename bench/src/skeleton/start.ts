import { fileURLToPath } from "node:url";
import { type TlsFiles, tlsEnvironment } from "@auth/grpc-kit/dev-pki";
import { Child, type ProcessName, productionNodeArgs } from "@auth/suite";

export interface RunningSkeleton {
  url: string;
  /** Its four processes, for their CPU. */
  processes: Array<{ name: string; pid: number | undefined }>;
  /** The name of its gateway among the processes. */
  gateway: string;
  stop(): Promise<void>;
}

/**
 * The architecture skeleton: a gateway and the three services the compared flows touch, each a node
 * process of its own with the product's node flags, over mutual TLS with the suite's certificates.
 */
export async function startSkeleton(certificates: Record<string, TlsFiles>): Promise<RunningSkeleton> {
  const children: Child[] = [];
  const tails: string[] = [];
  const nameOf = (name: ProcessName) => `skeleton ${name}`;
  const start = async (name: ProcessName, entry: string, env: NodeJS.ProcessEnv): Promise<string> => {
    const child = new Child({
      name: nameOf(name),
      entry: fileURLToPath(new URL(entry, import.meta.url)),
      nodeArgs: productionNodeArgs(name),
      env: { PATH: process.env.PATH, ...tlsEnvironment(certificates[name] as TlsFiles), ...env },
      onLine: (who, line) => tails.push(`${who}: ${line}`),
    });
    children.push(child);
    child.start();
    const ports = await Promise.race([
      child.listening(),
      child.exited().then(() => {
        throw new Error(`the skeleton's ${name} exited while starting:\n${tails.slice(-20).join("\n")}`);
      }),
    ]);
    return `127.0.0.1:${ports.port}`;
  };
  const stop = async () => {
    await Promise.all(children.map((child) => child.stop()));
  };
  try {
    const [session, disclaimer] = await Promise.all(
      (["session", "disclaimer"] as const).map((service) =>
        start(service, "./service.js", { SKELETON_SERVICE: service }),
      ),
    );
    const identity = await start("identity", "./service.js", {
      SKELETON_SERVICE: "identity",
      SESSION_ADDR: session,
    });
    const gateway = await start("gateway", "./gateway.js", {
      IDENTITY_ADDR: identity,
      SESSION_ADDR: session,
      DISCLAIMER_ADDR: disclaimer,
    });
    return {
      url: `http://${gateway}`,
      processes: children.map((child) => ({ name: child.options.name, pid: child.pid })),
      gateway: nameOf("gateway"),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
