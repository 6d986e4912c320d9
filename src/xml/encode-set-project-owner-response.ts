import type { OwnerView } from '../domain/views.ts';
import { XmlWriter } from './xml-writer.ts';

/** Encodes the SetProjectOwner answer: `<SetProjectOwnerResponse><Owner Name Email/></…>`. */
export function encodeSetProjectOwnerResponse(view: OwnerView, ns: string): string {
  return new XmlWriter(ns).start('SetProjectOwnerResponse').empty('Owner', { Name: view.name, Email: view.email }).end().finish();
}
