import { RootRole } from "@vexil/services";
import { z } from "zod";

export const rootRoleSchema = z.union([z.literal(RootRole.Admin), z.literal(RootRole.Editor), z.literal(RootRole.Viewer)]).meta({
  description: `Root role: ${Object.entries(RootRole)
    .map(([name, id]) => `${id} ${name}`)
    .join(", ")}`,
});

export const userSchema = z
  .object({
    id: z.number().int(),
    isAPI: z.boolean().optional(),
    name: z.string().nullable().optional(),
    email: z.string().nullable().optional(),
    username: z.string().nullable().optional(),
    imageUrl: z.string().optional(),
    inviteLink: z.string().optional(),
    loginAttempts: z.number().int().optional(),
    emailSent: z.boolean().optional(),
    rootRole: z.number().int().optional(),
    seenAt: z.iso.datetime().nullable().optional(),
    createdAt: z.iso.datetime().optional(),
    accountType: z.string().optional(),
    permissions: z.array(z.string()).optional(),
    scimId: z.string().nullable().optional(),
    authProvider: z
      .enum(["oidc", "local"])
      .optional()
      .meta({ description: "oidc: signs in with the identity provider, which created or linked the user; local: Vexil's own account" }),
    oidcSubject: z.string().nullable().optional().meta({ description: "Who the user is at the identity provider (the ID token's sub)" }),
  })
  .meta({ id: "User" });

export const okSchema = z.object({}).meta({ id: "Empty" });
