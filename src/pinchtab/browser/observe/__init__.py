"""What a tab records: console and errors, the network log, request interception."""
