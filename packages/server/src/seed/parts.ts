// The product hierarchy: per product two capabilities of two features each, and an enhancement.
import type { Builder } from "./context.js";
import { days } from "./data.js";

/** Returns the ids of every part made, parents before their children. */
export async function makeParts({ call, rnd, count }: Builder, userIds: string[]): Promise<string[]> {
  const partIds: string[] = [];
  const owner = () => [rnd.pick(userIds)];
  for (const product of ["Workspace", "Billing"]) {
    const { part: p } = await call("parts.create", { type: "product", name: product, owned_by: owner() });
    partIds.push(p.id);
    for (const capability of ["Accounts", "Reports"]) {
      const { part: c } = await call("parts.create", {
        type: "capability",
        name: `${product} ${capability}`,
        owned_by: owner(),
        parent_part: [p.id],
      });
      partIds.push(c.id);
      for (const feature of ["Export", "Sharing"]) {
        const { part: f } = await call("parts.create", {
          type: "feature",
          name: `${product} ${capability} ${feature}`,
          owned_by: owner(),
          parent_part: [c.id],
        });
        partIds.push(f.id);
      }
    }
    const { part: e } = await call("parts.create", {
      type: "enhancement",
      name: `${product} faster start-up`,
      owned_by: owner(),
      parent_part: [p.id],
      target_start_date: days(7),
      target_close_date: days(45),
    });
    partIds.push(e.id);
  }
  count("parts", partIds.length);
  return partIds;
}
