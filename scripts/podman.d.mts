import type { Writable } from "node:stream";

export const podmanOptions: string[];
export interface PodmanResult {
  status: number | null;
  stdout: string;
  stderr: string;
}
export function podman(
  args: string[],
  options?: { input?: NodeJS.ReadableStream; output?: Writable; timeoutMs?: number },
): Promise<PodmanResult>;
export function podmanOk(
  args: string[],
  options?: { input?: NodeJS.ReadableStream; output?: Writable; timeoutMs?: number },
): Promise<string>;
export function imageExists(name: string): Promise<boolean>;
export function podmanAvailable(what: string): boolean;
