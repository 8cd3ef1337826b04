-- The W3C trace context of the request that wrote the event (null when tracing is off): the relay
-- publishes later, in another transaction and thread, and sends it on as the record's traceparent header.
ALTER TABLE outbox ADD COLUMN traceparent TEXT;
