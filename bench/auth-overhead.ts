import type { DatabaseConfig } from '../src/config.ts';
import { AuthService } from '../src/domain/accounts/auth-service.ts';
import { systemClock } from '../src/model/clock.ts';
import { RandomIdGenerator } from '../src/model/ids.ts';
import { SignInGuard } from '../src/domain/accounts/sign-in-guard.ts';
import { openDatabase } from '../src/store/database.ts';
import { createKyselyStore } from '../src/store/kysely-store.ts';
import { ephemeralSecretBox } from '../src/store/secret-box.ts';

/**
 * The cost of authenticating one request once its credentials are known (the verified-credentials cache hit:
 * two indexed reads and the grants), measured in-process over the benchmark database, against a request's p50.
 */
export async function measureAuthentication(db: DatabaseConfig, who: { email: string; password: string; apiKey: string }, requestP50Ms: number) {
  const store = createKyselyStore(await openDatabase(db), { secrets: ephemeralSecretBox() });
  try {
    const auth = new AuthService(store, systemClock, new SignInGuard(store, systemClock, async () => {}), new RandomIdGenerator());
    const presented = {
      authorization: `Basic ${Buffer.from(`${who.email}:${who.password}`).toString('base64')}`, apiKey: who.apiKey, clientAddress: '127.0.0.1',
    };
    await auth.authenticate(presented);
    const rounds = 5000;
    const started = process.hrtime.bigint();
    for (let i = 0; i < rounds; i++) await auth.authenticate(presented);
    const authUs = Number(process.hrtime.bigint() - started) / 1000 / rounds;
    const requestUs = requestP50Ms * 1000;
    return { authUs, requestUs, share: requestUs > 0 ? authUs / requestUs : 0 };
  } finally {
    await store.close();
  }
}
