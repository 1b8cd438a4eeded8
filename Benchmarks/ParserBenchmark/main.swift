print("parser benchmark: not built yet")
