// Every operation of the contract is routed to a handler, and every handler serves an operation.
import { describe, expect, it } from "vitest";
import { loadContract } from "../src/http/contract.js";
import { handlers } from "../src/operations/index.js";

describe("handlers", () => {
  const contract = loadContract({ validateResponses: false });
  const names = [...new Set(contract.operations.map((operation) => operation.name))].sort();

  it("serve only operations of the contract", () => {
    expect(Object.keys(handlers).filter((name) => !names.includes(name))).toEqual([]);
  });

  it("exist for every operation of the contract", () => {
    expect(names.filter((name) => !(name in handlers))).toEqual([]);
  });
});
