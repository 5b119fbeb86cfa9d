"""Text layout shared by the commands: table cells and long-format wrapping."""
