"""What armsim ships as data: the board presets with their cited figures (`boards`) and the
models it builds itself (`modelgen`)."""
