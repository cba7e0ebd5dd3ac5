"""Building blocks of the chat-model agent: configuration, HTTP client, context, turns."""
