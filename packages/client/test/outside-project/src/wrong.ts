// Must not compile: each line marked below names a field the router does not have, in an input or
// in an output, over REST and over tRPC.
import { createRestClient, createTrpcClient } from "@vexil/client";

const rest = createRestClient({ baseUrl: "http://127.0.0.1:4242" });
const trpc = createTrpcClient({ baseUrl: "http://127.0.0.1:4242" });
const where = { projectId: "default", featureName: "checkout", environment: "development" };

await rest.banners.create({ mesage: "a misspelt field" }); // wrong: mesage
const { variants } = await rest.features.variants(where);
console.log(variants[0]?.wieght); // wrong: wieght
await trpc.features.variants.query({ projectId: "default", featureName: "checkout", enviroment: "development" }); // wrong: enviroment
const banner = await trpc.banners.create.mutate({ message: "a banner" });
console.log(banner.colour); // wrong: colour
