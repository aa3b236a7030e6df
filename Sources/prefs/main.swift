import PrefsKit
print("prefs")
