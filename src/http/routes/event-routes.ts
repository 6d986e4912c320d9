import type { FastifyInstance } from 'fastify';
import { EVENT_TYPES } from '../../model/event.ts';
import { EventsResponse, eventsValue } from '../../wire/documents/events.ts';
import { intParam, listParam, optionalParam, type RawQuery, sequenceParam } from '../query-params.ts';
import { callerOf } from '../request-caller.ts';
import type { RouteDeps } from '../route-deps.ts';

/** The most events one GetEvents page holds. */
export const MAX_EVENTS_PAGE = 1000;

/** GetEvents: the change feed. */
export function eventRoutes(app: FastifyInstance, { services, codec }: RouteDeps): void {
  app.get('/Events', {
    config: {
      operation: {
        operationId: 'GetEvents', tags: ['Events'], response: EventsResponse,
        summary: 'GetEvents: the events after a cursor that the caller may read, in sequence order (the change feed).',
        query: [
          { name: 'after', type: 'integer', description: 'Only events with a larger Sequence: the NextCursor of the previous page (default 0, the start).' },
          { name: 'limit', type: 'integer', description: `Events per page, 1–${MAX_EVENTS_PAGE} (default 100).` },
          { name: 'program', type: 'string', description: 'Only events of this program (its id or custom id).' },
          { name: 'type', type: 'string', description: `Only events of these types, comma-separated: ${EVENT_TYPES.join(', ')}.` },
        ],
      },
    },
  }, async (request, reply) => {
    const query = request.query as RawQuery;
    const view = await services.events.feed(callerOf(request), {
      after: sequenceParam(query, 'after', 0),
      limit: intParam(query, 'limit', 100, 1, MAX_EVENTS_PAGE),
      programRef: optionalParam(query, 'program'),
      types: listParam(query, 'type', EVENT_TYPES),
    });
    return codec.send(request, reply, EventsResponse, eventsValue(view));
  });
}
