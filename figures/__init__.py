"""One script per figure (`python -m figures.<name>`), each drawn from the tables; style.py is what they share."""
