import { startSyntheticAgency } from './agency-api.js';

// `pnpm --filter @wildo/e2e agency`: the synthetic agency on 127.0.0.1:8788 (or PORT), until interrupted.
const port = Number(process.env.PORT ?? 8788);
const agency = await startSyntheticAgency({ port, unrecorded: true });
process.stdout.write(
  `synthetic agency listening on ${agency.url} (it over-exposes on purpose; every stay and guest is invented)\n`,
);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => void agency.close().then(() => process.exit(0)));
