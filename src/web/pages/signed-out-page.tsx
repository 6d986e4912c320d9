import { Layout } from '../layout.tsx';
import { Alert } from '../components/alert.tsx';

/** The page shown after signing out: says so, and offers to sign in again. */
export function SignedOutPage(p: { signInPath: string }) {
  return (
    <Layout title="You are signed out">
      <h1>You are signed out</h1>
      <Alert kind="success" slim>You have signed out. Your session has ended on this device.</Alert>
      <p>On a shared computer, close the browser as well.</p>
      <p><a href={p.signInPath}>Sign in again</a></p>
    </Layout>
  );
}
