import { isoTimestamp } from '../model/clock.ts';
import type { StatusSetView } from '../domain/views.ts';
import { statusRefAttributes } from './project-attributes.ts';
import { XmlWriter } from './xml-writer.ts';

/** Encodes the SetProjectStatus answer: `<StatusSetResponse><Status StatusId [CustomId] Name Timestamp/><Url Value/></…>`. */
export function encodeStatusSetResponse(view: StatusSetView, ns: string): string {
  return new XmlWriter(ns).start('StatusSetResponse')
    .empty('Status', { ...statusRefAttributes(view.status), Timestamp: isoTimestamp(view.status.timestamp) })
    .empty('Url', { Value: view.url })
    .end().finish();
}
