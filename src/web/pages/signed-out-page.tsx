import { Layout } from '../layout.tsx';

/** The page shown after signing out: says so, and offers to sign in again. */
export function SignedOutPage(p: { signInPath: string }) {
  return (
    <Layout title="You are signed out">
      <h1>You are signed out</h1>
      <div class="notice ok">You have signed out. Your session has ended on this device.</div>
      <p>On a shared computer, close the browser as well.</p>
      <p><a href={p.signInPath}>Sign in again</a></p>
    </Layout>
  );
}
