print("kill matrix: not yet")
