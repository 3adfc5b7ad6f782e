// vitest.global-setup.ts (`test: { globalSetup: ["./vitest.global-setup.ts"] }` in vitest.config.ts): the
// stand-in starts inside the test run, on a free port and a database of its own, and stops after the last file.
import { startStandIn } from "@workapi/server";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    workapi: { url: string; token: string };
  }
}

export default async function setup(project: TestProject) {
  const standIn = await startStandIn(); // { databaseUrl: process.env.DATABASE_URL }: on PostgreSQL
  project.provide("workapi", { url: standIn.url, token: standIn.token });
  return () => standIn.stop();
}
